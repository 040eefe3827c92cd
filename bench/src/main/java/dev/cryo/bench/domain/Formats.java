package dev.cryo.bench.domain;

import java.util.Locale;

/** Number formats of the report: few significant digits, a fixed locale. */
public final class Formats {

    public static String number(Double value) {
        if (value == null || value.isNaN()) {
            return "n/a";
        }
        if (value.isInfinite()) {
            return value > 0 ? "∞" : "−∞";
        }
        double magnitude = Math.abs(value);
        if (magnitude == Math.rint(magnitude) && magnitude < 1e9) {
            return String.format(Locale.ROOT, "%d", value.longValue());
        }
        if (magnitude >= 100) {
            return String.format(Locale.ROOT, "%.0f", value);
        }
        if (magnitude >= 10) {
            return String.format(Locale.ROOT, "%.1f", value);
        }
        return String.format(Locale.ROOT, "%.2f", value);
    }

    public static String percent(double share) {
        if (Double.isInfinite(share)) {
            return "∞ %";
        }
        return String.format(Locale.ROOT, "%.1f %%", share * 100);
    }

    /** "mean [low, high]" or just the mean when there is no interval. */
    public static String withInterval(Summary summary) {
        if (summary.mean() == null) {
            return "n/a";
        }
        if (!summary.hasInterval()) {
            return number(summary.mean()) + " (n=" + summary.count() + ", no CI)";
        }
        return number(summary.mean()) + " [" + number(summary.ciLow()) + ", " + number(summary.ciHigh()) + "]";
    }

    private Formats() {
    }
}
