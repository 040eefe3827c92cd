package dev.cryo.bench.domain;

import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A target of the issue checked against what was measured, by a stated rule.
 *
 * @param description the target as the issue states it
 * @param rule how the trials are judged; null only in results written before the rules (judged on the mean)
 * @param measured the value compared: under {@link Rule#EVERY_TRIAL} the worst trial's
 * @param limit the limit it is compared with
 * @param verdict met, missed or not evaluated
 * @param detail how far off, for people ("missed in 1 of 3 trials: worst 2.5 s > 2 s (by 0.50 s, 25.0 %)")
 */
public record Target(String description, Rule rule, Double measured, Double limit, Verdict verdict, String detail) {

    public enum Verdict { MET, MISSED, NOT_EVALUATED }

    /** How a target is judged over the trials of a run. */
    public enum Rule {
        /** Every trial's value must meet the limit: the worst trial decides, a mean never hides one. */
        EVERY_TRIAL("every trial"),
        /** One value over the whole run (a count pooled over the trials, a peak): it must meet the limit. */
        WHOLE_RUN("the whole run"),
        /** A figure with its 95 % interval, no limit: met when measured. */
        REPORTED("reported with its interval");

        private final String label;

        Rule(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    public Target {
        requireNonNull(description, "description is null");
        requireNonNull(verdict, "verdict is null");
        requireNonNull(detail, "detail is null");
    }

    /** Every trial's value ≤ limit is met; the detail names the worst trial and how many missed. */
    public static Target atMost(String description, List<Double> perTrial, double limit, String unit) {
        return everyTrial(description, perTrial, limit, unit, true);
    }

    /** Every trial's value ≥ limit is met; the detail names the worst trial and how many fell short. */
    public static Target atLeast(String description, List<Double> perTrial, double limit, String unit) {
        return everyTrial(description, perTrial, limit, unit, false);
    }

    /**
     * In every trial |measured − reference| ≤ tolerance × reference, trial by trial (the i-th measured value
     * against the i-th reference); the detail names the trial furthest apart.
     */
    public static Target within(String description, List<Double> measured, List<Double> references, double tolerance) {
        List<Double> deviations = new ArrayList<>();
        int worst = -1;
        double worstDeviation = -1;
        int trials = measured == null || references == null ? 0 : Math.min(measured.size(), references.size());
        for (int trial = 0; trial < trials; trial++) {
            Double value = measured.get(trial);
            Double reference = references.get(trial);
            if (value == null || reference == null || value.isNaN() || reference.isNaN()) {
                continue;
            }
            double deviation = deviationOf(value, reference);
            if (deviation > worstDeviation) {
                worst = trial;
                worstDeviation = deviation;
            }
            deviations.add(deviation);
        }
        if (deviations.isEmpty()) {
            return notEvaluated(Rule.EVERY_TRIAL, description, "no measurement");
        }
        long missed = deviations.stream().filter(deviation -> deviation > tolerance).count();
        double worstValue = measured.get(worst);
        double worstReference = references.get(worst);
        String text = "worst " + Formats.number(worstValue) + " vs " + Formats.number(worstReference) + " ("
                + Formats.percent(worstDeviation) + " apart, tolerance " + Formats.percent(tolerance)
                + ")";
        return missed == 0
                ? new Target(description, Rule.EVERY_TRIAL, worstValue, worstReference, Verdict.MET,
                        "met in " + all(deviations.size()) + ": " + text)
                : new Target(description, Rule.EVERY_TRIAL, worstValue, worstReference, Verdict.MISSED,
                        "missed in " + missed + " of " + trials(deviations.size()) + ": " + text);
    }

    /** One value for the whole run (a pooled count, a peak) ≤ limit is met. */
    public static Target wholeRunAtMost(String description, Double measured, double limit, String unit) {
        return wholeRun(description, measured, limit, unit, true);
    }

    /** One value for the whole run (a pooled share) ≥ limit is met. */
    public static Target wholeRunAtLeast(String description, Double measured, double limit, String unit) {
        return wholeRun(description, measured, limit, unit, false);
    }

    /**
     * A target that asks only for a figure and its interval ("reported with its CI"): met when there is a
     * measurement, with the mean and the interval (or "n=1, no CI") as its detail.
     */
    public static Target reported(String description, Summary summary, String unit) {
        if (summary == null || summary.mean() == null) {
            return notEvaluated(Rule.REPORTED, description, "no measurement");
        }
        String interval = summary.hasInterval()
                ? " [" + Formats.number(summary.ciLow()) + unit + ", " + Formats.number(summary.ciHigh()) + unit + "]"
                : " (n=" + summary.count() + ", no CI)";
        return new Target(description, Rule.REPORTED, summary.mean(), null, Verdict.MET,
                "reported: " + Formats.number(summary.mean()) + unit + interval);
    }

    public static Target notEvaluated(Rule rule, String description, String why) {
        return new Target(description, requireNonNull(rule, "rule is null"), null, null, Verdict.NOT_EVALUATED,
                "not evaluated: " + why);
    }

    /** This target with more words after its detail (the counts behind a share, say). */
    public Target withDetail(String more) {
        return new Target(description, rule, measured, limit, verdict, detail + more);
    }

    /** The rule as the report prints it; results written before the rules were judged on the trials' mean. */
    public String ruleLabel() {
        return rule == null ? "mean of the trials (results before the rules)" : rule.label();
    }

    private static Target everyTrial(String description, List<Double> perTrial, double limit, String unit,
                                     boolean atMost) {
        List<Double> values = perTrial == null ? List.of()
                : perTrial.stream().filter(value -> value != null && !value.isNaN()).toList();
        if (values.isEmpty()) {
            return notEvaluated(Rule.EVERY_TRIAL, description, "no measurement");
        }
        double worst = atMost ? values.stream().mapToDouble(Double::doubleValue).max().orElseThrow()
                : values.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        long missed = values.stream().filter(value -> atMost ? value > limit : value < limit).count();
        String comparison = atMost ? " ≤ " : " ≥ ";
        if (missed == 0) {
            return new Target(description, Rule.EVERY_TRIAL, worst, limit, Verdict.MET, "met in " + all(values.size())
                    + ": worst " + Formats.number(worst) + unit + comparison + Formats.number(limit) + unit);
        }
        double by = Math.abs(worst - limit);
        return new Target(description, Rule.EVERY_TRIAL, worst, limit, Verdict.MISSED, "missed in " + missed + " of "
                + trials(values.size()) + ": worst " + Formats.number(worst) + unit + (atMost ? " > " : " < ")
                + Formats.number(limit) + unit + " (by " + Formats.number(by) + unit
                + (limit == 0 ? "" : ", " + relative(by, limit)) + ")");
    }

    private static Target wholeRun(String description, Double measured, double limit, String unit, boolean atMost) {
        if (measured == null || measured.isNaN()) {
            return notEvaluated(Rule.WHOLE_RUN, description, "no measurement");
        }
        boolean met = atMost ? measured <= limit : measured >= limit;
        if (met) {
            return new Target(description, Rule.WHOLE_RUN, measured, limit, Verdict.MET, "met: " + Formats.number(measured)
                    + unit + (atMost ? " ≤ " : " ≥ ") + Formats.number(limit) + unit);
        }
        double by = Math.abs(measured - limit);
        return new Target(description, Rule.WHOLE_RUN, measured, limit, Verdict.MISSED, "missed by "
                + Formats.number(by) + unit + (limit == 0 ? "" : " (" + relative(by, limit) + ")") + ": " + Formats.number(measured) + unit
                + (atMost ? " > " : " < ") + Formats.number(limit) + unit);
    }

    private static double deviationOf(double value, double reference) {
        return reference == 0 ? (value == 0 ? 0 : Double.POSITIVE_INFINITY) : Math.abs(value - reference) / Math.abs(reference);
    }

    private static String all(int trials) {
        return trials == 1 ? "the one trial" : "all " + trials + " trials";
    }

    private static String trials(int trials) {
        return trials == 1 ? "1 trial" : trials + " trials";
    }

    private static String relative(double difference, double limit) {
        return Formats.percent(difference / Math.abs(limit));
    }
}
