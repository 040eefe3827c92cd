package dev.cryo.console.domain;

import dev.cryo.contracts.Engine;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * The governor policy of one table as the operator edits it on the table page. Each field is optional:
 * null leaves the setting to broader patterns or the governor's default.
 *
 * @param cooldown least time between two jobs of the table, ISO-8601 ({@code PT30M})
 * @param windows maintenance windows, one per line; an empty list means "any time"
 * @param engine native, trino or spark
 */
public record PolicyEdit(String cooldown, List<String> windows, String engine) {

    /** Windows one policy may hold. */
    public static final int MAX_WINDOWS = 20;
    /** Longest window expression. */
    public static final int MAX_WINDOW_LENGTH = 200;
    /** What the windows field takes to mean "any time", overriding a broader pattern's windows. */
    public static final String ANY_TIME = "any";

    public PolicyEdit {
        windows = windows == null ? null : List.copyOf(windows);
    }

    /**
     * Reads the form; the governor checks the windows' syntax and answers with what to write.
     *
     * @throws InvalidInputException naming the field and what it accepts
     */
    public static PolicyEdit parse(String cooldown, String windows, String engine) {
        String parsedCooldown = null;
        if (cooldown != null && !cooldown.isBlank()) {
            try {
                Duration duration = Duration.parse(cooldown.trim());
                if (duration.isNegative()) {
                    throw new InvalidInputException("Cannot save the policy: the cooldown '" + cooldown.trim()
                            + "' is negative; write a duration such as PT30M");
                }
                parsedCooldown = duration.toString();
            } catch (DateTimeParseException e) {
                throw new InvalidInputException("Cannot save the policy: the cooldown '" + shown(cooldown)
                        + "' is not an ISO-8601 duration; write PT30M for 30 minutes or PT2H for two hours");
            }
        }
        List<String> parsedWindows = null;
        if (windows != null && !windows.isBlank()) {
            parsedWindows = new ArrayList<>();
            if (!windows.trim().equalsIgnoreCase(ANY_TIME)) {
                for (String line : windows.split("\\R")) {
                    String window = line.trim();
                    if (window.isEmpty()) {
                        continue;
                    }
                    if (window.length() > MAX_WINDOW_LENGTH) {
                        throw new InvalidInputException("Cannot save the policy: a window is longer than "
                                + MAX_WINDOW_LENGTH + " characters");
                    }
                    parsedWindows.add(window);
                }
                if (parsedWindows.size() > MAX_WINDOWS) {
                    throw new InvalidInputException("Cannot save the policy: it has " + parsedWindows.size()
                            + " windows, at most " + MAX_WINDOWS + " are accepted");
                }
            }
        }
        String parsedEngine = null;
        if (engine != null && !engine.isBlank()) {
            try {
                parsedEngine = Engine.fromId(engine.trim()).id();
            } catch (IllegalArgumentException e) {
                throw new InvalidInputException("Cannot save the policy: engine '" + shown(engine)
                        + "' is not native, trino or spark");
            }
        }
        if (parsedCooldown == null && parsedWindows == null && parsedEngine == null) {
            throw new InvalidInputException("Cannot save an empty policy: set a cooldown, windows or an engine, "
                    + "or remove the table's own policy");
        }
        return new PolicyEdit(parsedCooldown, parsedWindows, parsedEngine);
    }

    /** The windows as the form shows them: one per line, {@value #ANY_TIME} for "any time", empty when inherited. */
    public static String windowsText(List<String> windows) {
        if (windows == null) {
            return "";
        }
        return windows.isEmpty() ? ANY_TIME : String.join("\n", windows);
    }

    private static String shown(String value) {
        String printable = value.trim().replaceAll("\\p{Cntrl}", "?");
        return printable.length() > 40 ? printable.substring(0, 40) + "…" : printable;
    }
}
