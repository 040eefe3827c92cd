package dev.cryo.cli.text;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** How numbers, sizes, times and measured values read on a terminal. */
public final class Formats {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT);

    /** 1.5 GiB, 812 KiB, 12 B. */
    public static String bytes(double bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
        double value = bytes;
        int unit = 0;
        while (Math.abs(value) >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        if (unit == 0) {
            return String.format(Locale.ROOT, "%.0f B", value);
        }
        return String.format(Locale.ROOT, value >= 100 ? "%.0f %s" : "%.1f %s", value, units[unit]);
    }

    /** 3 d 4 h, 5 min 2 s, 800 ms. */
    public static String duration(Duration duration) {
        long seconds = duration.toSeconds();
        if (seconds < 1) {
            return duration.toMillis() + " ms";
        }
        if (seconds < 60) {
            return String.format(Locale.ROOT, "%.1f s", duration.toMillis() / 1000.0);
        }
        if (seconds < 3600) {
            return (seconds / 60) + " min " + (seconds % 60) + " s";
        }
        if (seconds < 86_400) {
            return (seconds / 3600) + " h " + (seconds % 3600 / 60) + " min";
        }
        return (seconds / 86_400) + " d " + (seconds % 86_400 / 3600) + " h";
    }

    /** A time in the local zone, to the second. */
    public static String time(Instant instant, ZoneId zone) {
        return instant == null ? "-" : TIME.format(instant.atZone(zone));
    }

    /** How long ago, for listings: "12 s ago", "3 d 1 h ago". */
    public static String ago(Instant instant, Instant now) {
        if (instant == null) {
            return "-";
        }
        Duration age = Duration.between(instant, now);
        return age.isNegative() ? "just now" : duration(age) + " ago";
    }

    /**
     * A measured value or limit in the unit the scorer gives it: {@code share} (0..1) as a
     * percentage, {@code seconds} as days or hours, {@code bytes} as a size, counts as integers,
     * ratios with two decimals.
     */
    public static String measured(double value, String unit) {
        return switch (unit == null ? "" : unit) {
            case "share" -> String.format(Locale.ROOT, "%.1f %%", value * 100);
            case "seconds" -> duration(Duration.ofMillis((long) (value * 1000)));
            case "bytes" -> bytes(value);
            case "count" -> String.format(Locale.ROOT, "%.0f", value);
            case "ratio" -> String.format(Locale.ROOT, "%.2f", value);
            default -> String.format(Locale.ROOT, "%s %s", trim(value), unit == null ? "" : unit).trim();
        };
    }

    private static String trim(double value) {
        return value == Math.rint(value) ? String.format(Locale.ROOT, "%.0f", value) : String.format(Locale.ROOT, "%.3f", value);
    }

    private Formats() {
    }
}
