package dev.cryo.bench.domain;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The latencies of one phase of scenario 4 (idle, or while a contender maintains the table): the
 * samples that ran during the maintenance windows, their nearest-rank percentiles over the queries
 * that answered, and the failures.
 */
public final class QueryLatencies {

    private final List<QuerySample> samples;

    private QueryLatencies(List<QuerySample> samples) {
        this.samples = List.copyOf(samples);
    }

    /** Every sample of a phase that had no maintenance (the idle baseline). */
    public static QueryLatencies of(List<QuerySample> samples) {
        return new QueryLatencies(requireNonNull(samples, "samples is null"));
    }

    /**
     * The samples that ran, at least in part, while a window was open: a query that straddles the start
     * or the end of the maintenance was slowed (or not) by it and counts.
     */
    public static QueryLatencies during(List<QuerySample> samples, List<TimeWindow> windows) {
        requireNonNull(samples, "samples is null");
        requireNonNull(windows, "windows is null");
        return new QueryLatencies(samples.stream()
                .filter(sample -> windows.stream().anyMatch(sample::overlaps)).toList());
    }

    /**
     * The samples that ran entirely outside every window: the idle baseline taken from the same loop, on
     * the same table, between and around the maintenance (a query that touches a window is not idle).
     */
    public static QueryLatencies outside(List<QuerySample> samples, List<TimeWindow> windows) {
        requireNonNull(samples, "samples is null");
        requireNonNull(windows, "windows is null");
        return new QueryLatencies(samples.stream()
                .filter(sample -> windows.stream().noneMatch(sample::overlaps)).toList());
    }

    public List<QuerySample> samples() {
        return samples;
    }

    /** Latencies in seconds of the queries that answered. */
    public List<Double> answeredSeconds() {
        return samples.stream().filter(sample -> !sample.failed()).map(QuerySample::latencySeconds).toList();
    }

    /** Nearest-rank percentile (p in (0, 100]) of the answered queries' latencies in seconds; NaN when none answered. */
    public double percentileSeconds(double p) {
        return Statistics.percentile(answeredSeconds(), p);
    }

    public int failures() {
        return (int) samples.stream().filter(QuerySample::failed).count();
    }

    public int count() {
        return samples.size();
    }
}
