package dev.cryo.scoring;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

/** Numbers for humans in explanations; always in {@link Locale#ROOT} so text is stable across machines. */
final class Formats {

    private static final long DAY_SECONDS = 86_400;
    private static final long HOUR_SECONDS = 3_600;
    private static final String[] BYTE_UNITS = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};

    /** A measured share with one decimal: {@code 62.3 %}. */
    static String measuredPercent(double share) {
        return String.format(Locale.ROOT, "%.1f %%", share * 100);
    }

    /** A limit share without needless decimals: {@code 50 %}, {@code 22.5 %}. */
    static String percent(double share) {
        return plain(share * 100, 2) + " %";
    }

    static String count(double count) {
        return String.format(Locale.ROOT, "%,d", Math.round(count));
    }

    static String ratio(double ratio) {
        return String.format(Locale.ROOT, "%.2f", ratio);
    }

    /** An age, in whole days from one day on (as operators count snapshot retention), else in hours or seconds. */
    static String age(double seconds) {
        long whole = (long) Math.floor(seconds);
        if (whole >= DAY_SECONDS) {
            long days = whole / DAY_SECONDS;
            return days + (days == 1 ? " day" : " days");
        }
        if (whole >= HOUR_SECONDS) {
            long hours = whole / HOUR_SECONDS;
            return hours + (hours == 1 ? " hour" : " hours");
        }
        return whole + (whole == 1 ? " second" : " seconds");
    }

    /** Binary units, at most one decimal: {@code 128 MiB}, {@code 1.5 GiB}, {@code 900 B}. */
    static String bytes(double bytes) {
        double value = bytes;
        int unit = 0;
        while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
            value /= 1024;
            unit++;
        }
        return plain(value, 1) + " " + BYTE_UNITS[unit];
    }

    /** A number without needless decimals: {@code 10}, {@code 12.5}. */
    static String plain(double value) {
        return plain(value, 2);
    }

    private static String plain(double value, int maxDecimals) {
        return BigDecimal.valueOf(value).setScale(maxDecimals, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
    }

    private Formats() {
    }
}
