package dev.cryo.bench.domain;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Scenario 2's query mix on Trino, one copy and one trial: per query the median (nearest-rank p50)
 * latency of its answered runs before and after the maintenance, the speedup before ÷ after, and
 * the geometric mean of those speedups over the queries (the trial's one value; over the trials,
 * {@link Statistics#geometricMean} gives the interval on the logarithms).
 *
 * @param medianBeforeSeconds per query, the median latency before the maintenance
 * @param medianAfterSeconds per query, the median latency after it
 * @param speedups per query, before ÷ after; a query without an answered run in either phase has none
 * @param failures the queries that raised an error, before and after
 */
public record QueryMixSpeedup(Map<String, Double> medianBeforeSeconds, Map<String, Double> medianAfterSeconds,
                              Map<String, Double> speedups, int failures) {

    public QueryMixSpeedup {
        medianBeforeSeconds = Collections.unmodifiableMap(new LinkedHashMap<>(
                requireNonNull(medianBeforeSeconds, "medianBeforeSeconds is null")));
        medianAfterSeconds = Collections.unmodifiableMap(new LinkedHashMap<>(
                requireNonNull(medianAfterSeconds, "medianAfterSeconds is null")));
        speedups = Collections.unmodifiableMap(new LinkedHashMap<>(requireNonNull(speedups, "speedups is null")));
    }

    /** From the runs of the mix before and after the maintenance (queries in the order they first ran). */
    public static QueryMixSpeedup of(List<QuerySample> before, List<QuerySample> after) {
        requireNonNull(before, "before is null");
        requireNonNull(after, "after is null");
        Map<String, Double> medianBefore = medians(before);
        Map<String, Double> medianAfter = medians(after);
        Map<String, Double> speedups = new LinkedHashMap<>();
        medianBefore.forEach((query, seconds) -> {
            Double later = medianAfter.get(query);
            if (later != null && later > 0 && seconds > 0) {
                speedups.put(query, seconds / later);
            }
        });
        int failures = (int) (before.stream().filter(QuerySample::failed).count()
                + after.stream().filter(QuerySample::failed).count());
        return new QueryMixSpeedup(medianBefore, medianAfter, speedups, failures);
    }

    /** The geometric mean of the queries' speedups; NaN when no query has one. */
    public double geometricMean() {
        if (speedups.isEmpty()) {
            return Double.NaN;
        }
        return Statistics.geometricMean(new ArrayList<>(speedups.values())).mean();
    }

    /** The sum of the queries' median latencies before (one pass through the mix, as a dashboard refresh). */
    public double mixBeforeSeconds() {
        return medianBeforeSeconds.values().stream().mapToDouble(Double::doubleValue).sum();
    }

    /** The sum of the queries' median latencies after. */
    public double mixAfterSeconds() {
        return medianAfterSeconds.values().stream().mapToDouble(Double::doubleValue).sum();
    }

    private static Map<String, Double> medians(List<QuerySample> samples) {
        Map<String, List<Double>> byQuery = new LinkedHashMap<>();
        for (QuerySample sample : samples) {
            List<Double> latencies = byQuery.computeIfAbsent(sample.query(), ignored -> new ArrayList<>());
            if (!sample.failed()) {
                latencies.add(sample.latencySeconds());
            }
        }
        Map<String, Double> medians = new LinkedHashMap<>();
        byQuery.forEach((query, latencies) -> {
            if (!latencies.isEmpty()) {
                medians.put(query, Statistics.percentile(latencies, 50));
            }
        });
        return medians;
    }
}
