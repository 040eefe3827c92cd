package dev.cryo.bench.domain;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A curve to plot: y over x (delete files over seconds, …), one per contender and trial.
 *
 * @param chart the chart it belongs to (also its file name)
 * @param name the legend entry
 * @param xLabel the x axis
 * @param yLabel the y axis
 * @param x the x values
 * @param y the y values, as many as x
 */
public record Series(String chart, String name, String xLabel, String yLabel, List<Double> x, List<Double> y) {

    public Series {
        requireNonNull(chart, "chart is null");
        requireNonNull(name, "name is null");
        requireNonNull(xLabel, "xLabel is null");
        requireNonNull(yLabel, "yLabel is null");
        x = List.copyOf(requireNonNull(x, "x is null"));
        y = List.copyOf(requireNonNull(y, "y is null"));
        if (x.size() != y.size()) {
            throw new IllegalArgumentException("Cannot plot " + name + ": " + x.size() + " x values but " + y.size()
                    + " y values");
        }
    }
}
