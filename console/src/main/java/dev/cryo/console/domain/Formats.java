package dev.cryo.console.domain;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** How numbers, sizes, times and measured values read on the console's pages. */
public final class Formats {

    private static final String[] BYTE_UNITS = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);
    private static final long MINUTE_SECONDS = 60;
    private static final long HOUR_SECONDS = 3600;
    private static final long DAY_SECONDS = 86_400;

    /** Binary units, one decimal: {@code 512 B}, {@code 1.5 KiB}, {@code 12.3 MiB}. */
    public static String bytes(long bytes) {
        if (bytes < 0) {
            return "-" + bytes(-bytes);
        }
        if (bytes < 1024) {
            return bytes + " B";
        }
        double value = bytes;
        int unit = -1;
        while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
            value /= 1024;
            unit++;
        }
        return oneDecimal(value) + " " + BYTE_UNITS[unit];
    }

    /** A count with thousands separators: {@code 12,345}. */
    public static String count(long count) {
        return String.format(Locale.ROOT, "%,d", count);
    }

    /** A share 0..1 as a percentage with one decimal: {@code 62.3 %}. */
    public static String percent(double share) {
        return oneDecimal(share * 100) + " %";
    }

    /**
     * A deduction's measured value or limit in its unit: {@code share} as a percentage, {@code count}
     * as a whole number, {@code ratio} with two decimals, {@code seconds} as an age, {@code bytes} in binary units.
     */
    public static String measured(double value, String unit) {
        if (unit == null) {
            return plain(value);
        }
        return switch (unit) {
            case "share" -> percent(value);
            case "count" -> count(Math.round(value));
            case "ratio" -> String.format(Locale.ROOT, "%.2f", value);
            case "seconds" -> age(Duration.ofSeconds(Math.round(value)));
            case "bytes" -> bytes(Math.round(value));
            default -> plain(value) + " " + unit;
        };
    }

    /** A length of time as people say it: {@code 42 s}, {@code 5 min}, {@code 3 h}, {@code 58 days}. */
    public static String age(Duration duration) {
        long seconds = Math.abs(duration.getSeconds());
        if (seconds < MINUTE_SECONDS) {
            return seconds + " s";
        }
        if (seconds < HOUR_SECONDS) {
            return seconds / MINUTE_SECONDS + " min";
        }
        if (seconds < DAY_SECONDS) {
            return seconds / HOUR_SECONDS + " h";
        }
        long days = seconds / DAY_SECONDS;
        return days + (days == 1 ? " day" : " days");
    }

    /** How long ago (or how soon) a moment is: {@code 5 min ago}, {@code in 30 s}, {@code just now}; "never" for null. */
    public static String relative(Instant moment, Instant now) {
        if (moment == null) {
            return "never";
        }
        Duration between = Duration.between(moment, now);
        if (Math.abs(between.getSeconds()) < 2) {
            return "just now";
        }
        return between.isNegative() ? "in " + age(between) : age(between) + " ago";
    }

    /** A wall time such as a job's duration: {@code 850 ms}, {@code 4.2 s}, {@code 3 min 4 s}, {@code 2 h 5 min}. */
    public static String duration(Duration duration) {
        if (duration == null) {
            return "";
        }
        long millis = duration.toMillis();
        if (millis < 1000) {
            return millis + " ms";
        }
        if (millis < 60_000) {
            return oneDecimal(millis / 1000.0) + " s";
        }
        long seconds = duration.getSeconds();
        if (seconds < HOUR_SECONDS) {
            return seconds / MINUTE_SECONDS + " min " + seconds % MINUTE_SECONDS + " s";
        }
        return seconds / HOUR_SECONDS + " h " + (seconds % HOUR_SECONDS) / MINUTE_SECONDS + " min";
    }

    /** A moment in UTC: {@code 2026-11-29 12:34:56 UTC}; empty for null. */
    public static String time(Instant moment) {
        return moment == null ? "" : TIME.format(moment);
    }

    private static String oneDecimal(double value) {
        String text = String.format(Locale.ROOT, "%.1f", value);
        return text.endsWith(".0") ? text.substring(0, text.length() - 2) : text;
    }

    private static String plain(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15 ? Long.toString((long) value)
                : String.format(Locale.ROOT, "%.3f", value);
    }

    private Formats() {
    }
}
