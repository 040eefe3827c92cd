package dev.cryo.bench.domain;

import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The statistics of bench/PROTOCOL.md: Student t 95 % intervals over per-trial values, per-trial
 * ratios, geometric means of speedups, nearest-rank percentiles. Pure functions of plain values.
 */
public final class Statistics {

    /** t(0.975, df) for df = 1 … 30; beyond 30 the normal quantile is close enough. */
    private static final double[] T_975 = {
            12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
            2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
            2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};

    private static final double Z_975 = 1.960;

    /** The two-sided 95 % Student t quantile for the given degrees of freedom. */
    public static double tQuantile975(int degreesOfFreedom) {
        if (degreesOfFreedom < 1) {
            throw new IllegalArgumentException("Cannot give a t quantile: degrees of freedom must be at least 1, got "
                    + degreesOfFreedom);
        }
        return degreesOfFreedom <= T_975.length ? T_975[degreesOfFreedom - 1] : Z_975;
    }

    /** Mean and Student t 95 % interval of per-trial values; NaN and null values are rejected. */
    public static Summary summarize(List<Double> values) {
        requireNonNull(values, "values is null");
        for (Double value : values) {
            if (value == null || value.isNaN() || value.isInfinite()) {
                throw new IllegalArgumentException("Cannot summarize " + values + ": every value must be a finite number");
            }
        }
        int n = values.size();
        if (n == 0) {
            return new Summary(values, null, null, null, null);
        }
        double mean = values.stream().mapToDouble(Double::doubleValue).sum() / n;
        if (n == 1) {
            return new Summary(values, mean, null, null, null);
        }
        double squares = values.stream().mapToDouble(value -> (value - mean) * (value - mean)).sum();
        double deviation = Math.sqrt(squares / (n - 1));
        double half = tQuantile975(n - 1) * deviation / Math.sqrt(n);
        return new Summary(values, mean, deviation, mean - half, mean + half);
    }

    /**
     * Per-trial ratios numerator ÷ denominator. A trial whose denominator is 0 has no ratio and is
     * left out (the report says so), so the result may be shorter than the inputs.
     */
    public static List<Double> ratios(List<Double> numerators, List<Double> denominators) {
        requireNonNull(numerators, "numerators is null");
        requireNonNull(denominators, "denominators is null");
        if (numerators.size() != denominators.size()) {
            throw new IllegalArgumentException("Cannot pair trials: " + numerators.size() + " numerators but "
                    + denominators.size() + " denominators");
        }
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < numerators.size(); i++) {
            if (denominators.get(i) != 0) {
                ratios.add(numerators.get(i) / denominators.get(i));
            }
        }
        return ratios;
    }

    /**
     * Geometric mean of per-trial speedups with its 95 % interval: Student t over the logarithms,
     * exponentiated (so the interval is multiplicative and never below 0).
     */
    public static Summary geometricMean(List<Double> speedups) {
        requireNonNull(speedups, "speedups is null");
        List<Double> logs = new ArrayList<>();
        for (Double speedup : speedups) {
            if (speedup == null || !(speedup > 0) || speedup.isInfinite()) {
                throw new IllegalArgumentException("Cannot take a geometric mean of " + speedups
                        + ": every speedup must be a positive finite number");
            }
            logs.add(Math.log(speedup));
        }
        Summary onLogs = summarize(logs);
        return new Summary(speedups, exp(onLogs.mean()), onLogs.standardDeviation(), exp(onLogs.ciLow()),
                exp(onLogs.ciHigh()));
    }

    /** The nearest-rank percentile (p in (0, 100]) of samples; NaN when there are none. */
    public static double percentile(List<Double> samples, double p) {
        requireNonNull(samples, "samples is null");
        if (!(p > 0 && p <= 100)) {
            throw new IllegalArgumentException("Cannot take percentile " + p + ": it must be in (0, 100]");
        }
        if (samples.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = new ArrayList<>(samples);
        sorted.sort(Double::compare);
        int rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return sorted.get(Math.max(1, rank) - 1);
    }

    private static Double exp(Double value) {
        return value == null ? null : Math.exp(value);
    }

    private Statistics() {
    }
}
