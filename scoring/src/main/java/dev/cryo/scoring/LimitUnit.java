package dev.cryo.scoring;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The unit of a check's measured value and of its limits, as named in {@code Deduction.unit}.
 * Each unit parses the text an operator writes in a configuration key or a table property.
 */
public enum LimitUnit {
    /** A share of a whole, 0..1 (0.2 = 20 %). */
    SHARE("share"),
    /** A count of files, snapshots or manifests. */
    COUNT("count"),
    /** A ratio of two quantities (0.25 = one deleted row per four data rows). */
    RATIO("ratio"),
    /** An age in seconds; limits may also be written as ISO-8601 durations ({@code P7D}, {@code PT12H}). */
    SECONDS("seconds"),
    /** A size in bytes; limits may also be written with a binary unit ({@code 1GiB}, {@code 512 MiB}). */
    BYTES("bytes");

    private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(B|KiB|MiB|GiB|TiB)?");

    private final String id;

    LimitUnit(String id) {
        this.id = id;
    }

    /** The unit as {@code Deduction.unit} names it. */
    public String id() {
        return id;
    }

    /**
     * Parses a limit written by an operator.
     *
     * @throws IllegalArgumentException with a message that says what is expected
     */
    public double parse(String text) {
        String value = text.trim();
        double parsed = switch (this) {
            case SECONDS -> parseSeconds(value);
            case BYTES -> parseBytes(value);
            default -> parseNumber(value);
        };
        if (!Double.isFinite(parsed) || parsed <= 0) {
            throw new IllegalArgumentException("'" + text + "' must be a positive " + description());
        }
        if (this == SHARE && parsed > 1) {
            throw new IllegalArgumentException("'" + text + "' is a share and must be within 0..1 (0.2 = 20 %)");
        }
        return parsed;
    }

    /** What a limit of this unit looks like, for error messages. */
    public String description() {
        return switch (this) {
            case SHARE -> "share within 0..1 (0.2 = 20 %)";
            case COUNT -> "count";
            case RATIO -> "ratio (0.25 = one in four)";
            case SECONDS -> "number of seconds or an ISO-8601 duration (P7D, PT12H)";
            case BYTES -> "number of bytes, optionally with a unit (512MiB, 1GiB)";
        };
    }

    /** A limit or measured value for humans: {@code 20 %}, {@code 10,000}, {@code 0.25}, {@code 7 days}, {@code 1 GiB}. */
    public String format(double value) {
        return switch (this) {
            case SHARE -> Formats.percent(value);
            case COUNT -> Formats.count(value);
            case RATIO -> Formats.ratio(value);
            case SECONDS -> Formats.age(value);
            case BYTES -> Formats.bytes(value);
        };
    }

    private double parseNumber(String value) {
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + value + "' is not a " + description(), e);
        }
    }

    private double parseSeconds(String value) {
        if (value.toUpperCase(Locale.ROOT).startsWith("P")) {
            try {
                return Duration.parse(value).getSeconds();
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("'" + value + "' is not a " + description(), e);
            }
        }
        return parseNumber(value);
    }

    private double parseBytes(String value) {
        Matcher matcher = SIZE.matcher(value);
        if (!matcher.matches()) {
            throw new IllegalArgumentException("'" + value + "' is not a " + description());
        }
        double number = Double.parseDouble(matcher.group(1));
        String unit = matcher.group(2) == null ? "B" : matcher.group(2);
        long multiplier = switch (unit) {
            case "KiB" -> 1L << 10;
            case "MiB" -> 1L << 20;
            case "GiB" -> 1L << 30;
            case "TiB" -> 1L << 40;
            default -> 1L;
        };
        return Math.floor(number * multiplier);
    }
}
