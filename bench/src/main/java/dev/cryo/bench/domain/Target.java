package dev.cryo.bench.domain;

import static java.util.Objects.requireNonNull;

/**
 * A target of the issue checked against a measured value.
 *
 * @param description the target as the issue states it
 * @param measured the value compared (mean over trials)
 * @param limit the limit it is compared with
 * @param verdict met, missed or not evaluated
 * @param detail how far off, for people ("missed by 0.8 s (40 %)")
 */
public record Target(String description, Double measured, Double limit, Verdict verdict, String detail) {

    public enum Verdict { MET, MISSED, NOT_EVALUATED }

    public Target {
        requireNonNull(description, "description is null");
        requireNonNull(verdict, "verdict is null");
        requireNonNull(detail, "detail is null");
    }

    /** measured ≤ limit is met; otherwise missed by the difference (absolute and relative). */
    public static Target atMost(String description, Double measured, double limit, String unit) {
        if (measured == null || measured.isNaN()) {
            return notEvaluated(description, "no measurement");
        }
        if (measured <= limit) {
            return new Target(description, measured, limit, Verdict.MET,
                    "met: " + Formats.number(measured) + unit + " ≤ " + Formats.number(limit) + unit);
        }
        return new Target(description, measured, limit, Verdict.MISSED, "missed by " + Formats.number(measured - limit)
                + unit + relative(measured - limit, limit) + ": " + Formats.number(measured) + unit + " > "
                + Formats.number(limit) + unit);
    }

    /** measured ≥ limit is met; otherwise missed by the shortfall. */
    public static Target atLeast(String description, Double measured, double limit, String unit) {
        if (measured == null || measured.isNaN()) {
            return notEvaluated(description, "no measurement");
        }
        if (measured >= limit) {
            return new Target(description, measured, limit, Verdict.MET,
                    "met: " + Formats.number(measured) + unit + " ≥ " + Formats.number(limit) + unit);
        }
        return new Target(description, measured, limit, Verdict.MISSED, "missed by " + Formats.number(limit - measured)
                + unit + relative(limit - measured, limit) + ": " + Formats.number(measured) + unit + " < "
                + Formats.number(limit) + unit);
    }

    /** |measured − reference| ≤ tolerance × reference is met. */
    public static Target within(String description, Double measured, Double reference, double tolerance) {
        if (measured == null || reference == null || measured.isNaN() || reference.isNaN()) {
            return notEvaluated(description, "no measurement");
        }
        double deviation = reference == 0 ? (measured == 0 ? 0 : Double.POSITIVE_INFINITY)
                : Math.abs(measured - reference) / Math.abs(reference);
        String text = Formats.number(measured) + " vs " + Formats.number(reference) + " (" + Formats.percent(deviation)
                + " apart, tolerance " + Formats.percent(tolerance) + ")";
        return deviation <= tolerance
                ? new Target(description, measured, reference, Verdict.MET, "met: " + text)
                : new Target(description, measured, reference, Verdict.MISSED, "missed: " + text);
    }

    /**
     * A target that asks only for a figure and its interval ("reported with its CI"): met when there is a
     * measurement, with the mean and the interval (or "n=1, no CI") as its detail.
     */
    public static Target reported(String description, Summary summary, String unit) {
        if (summary == null || summary.mean() == null) {
            return notEvaluated(description, "no measurement");
        }
        String interval = summary.hasInterval()
                ? " [" + Formats.number(summary.ciLow()) + unit + ", " + Formats.number(summary.ciHigh()) + unit + "]"
                : " (n=" + summary.count() + ", no CI)";
        return new Target(description, summary.mean(), null, Verdict.MET,
                "reported: " + Formats.number(summary.mean()) + unit + interval);
    }

    public static Target notEvaluated(String description, String why) {
        return new Target(description, null, null, Verdict.NOT_EVALUATED, "not evaluated: " + why);
    }

    private static String relative(double difference, double limit) {
        return limit == 0 ? "" : " (" + Formats.percent(difference / Math.abs(limit)) + ")";
    }
}
