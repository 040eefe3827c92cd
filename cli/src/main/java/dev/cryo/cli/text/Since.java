package dev.cryo.cli.text;

import dev.cryo.cli.api.CliException;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A point in time as people type it: {@code 30m}, {@code 2h}, {@code 7d} ago, ISO-8601, or a date. */
public final class Since {

    private static final Pattern SHORT = Pattern.compile("(\\d+)\\s*(s|m|min|h|d|w)");

    public static Instant parse(String text, Instant now, ZoneId zone) {
        String value = text.trim().toLowerCase(Locale.ROOT);
        Matcher shortForm = SHORT.matcher(value);
        if (shortForm.matches()) {
            long amount = Long.parseLong(shortForm.group(1));
            Duration ago = switch (shortForm.group(2)) {
                case "s" -> Duration.ofSeconds(amount);
                case "m", "min" -> Duration.ofMinutes(amount);
                case "h" -> Duration.ofHours(amount);
                case "d" -> Duration.ofDays(amount);
                case "w" -> Duration.ofDays(7 * amount);
                default -> throw new IllegalStateException("unreachable: the pattern lists the units");
            };
            return now.minus(ago);
        }
        try {
            if (value.startsWith("p")) {
                return now.minus(Duration.parse(text.trim()));
            }
            if (value.length() == 10) {
                return LocalDate.parse(value).atStartOfDay(zone).toInstant();
            }
            return OffsetDateTime.parse(text.trim()).toInstant();
        } catch (DateTimeParseException e) {
            throw new CliException("Cannot read the time '" + text + "': write 30m, 2h, 7d, PT90M, 2026-01-31 or "
                    + "2026-01-31T12:00:00Z");
        }
    }

    private Since() {
    }
}
