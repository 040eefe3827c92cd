package dev.cryo.bench.domain;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Per-trial values of one metric and their 95 % confidence interval (Student t over the trials).
 * With fewer than two values the interval is undefined: {@code ciLow} and {@code ciHigh} are null.
 *
 * @param values the per-trial values, in trial order
 * @param mean their arithmetic mean (null when there are none)
 * @param standardDeviation the sample standard deviation (null below two values)
 * @param ciLow lower end of the 95 % interval (null below two values)
 * @param ciHigh upper end of the 95 % interval (null below two values)
 */
public record Summary(List<Double> values, Double mean, Double standardDeviation, Double ciLow, Double ciHigh) {

    public Summary {
        values = List.copyOf(requireNonNull(values, "values is null"));
    }

    public int count() {
        return values.size();
    }

    public boolean hasInterval() {
        return ciLow != null && ciHigh != null;
    }
}
