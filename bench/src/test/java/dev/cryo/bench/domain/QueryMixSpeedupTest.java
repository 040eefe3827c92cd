package dev.cryo.bench.domain;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class QueryMixSpeedupTest {

    /** Runs of one query with the given latencies in milliseconds, one after the other. */
    private static List<QuerySample> runs(String query, long... millis) {
        List<QuerySample> samples = new ArrayList<>();
        long start = 0;
        for (long latency : millis) {
            samples.add(new QuerySample(query, start, start + latency, null));
            start += latency + 10;
        }
        return samples;
    }

    private static List<QuerySample> concat(List<QuerySample> first, List<QuerySample> second) {
        List<QuerySample> all = new ArrayList<>(first);
        all.addAll(second);
        return all;
    }

    @Test
    void eachQuerysSpeedupIsItsMedianBeforeOverItsMedianAfter() {
        // count: medians 4 s before, 1 s after (one slow outlier each time is ignored by the median)
        // top: medians 0.9 s before, 0.9 s after
        List<QuerySample> before = concat(runs("count", 4_000, 3_000, 9_000, 5_000, 4_000),
                runs("top", 900, 900, 800, 1_000, 950));
        List<QuerySample> after = concat(runs("count", 1_000, 7_000, 1_000, 900, 1_100),
                runs("top", 900, 850, 900, 950, 3_000));

        QueryMixSpeedup mix = QueryMixSpeedup.of(before, after);

        assertThat(mix.medianBeforeSeconds()).containsEntry("count", 4.0).containsEntry("top", 0.9);
        assertThat(mix.medianAfterSeconds()).containsEntry("count", 1.0).containsEntry("top", 0.9);
        assertThat(mix.speedups().keySet()).containsExactly("count", "top");
        assertThat(mix.speedups().get("count")).isCloseTo(4.0, within(1e-9));
        assertThat(mix.speedups().get("top")).isCloseTo(1.0, within(1e-9));
        // geometric mean of 4 and 1
        assertThat(mix.geometricMean()).isCloseTo(2.0, within(1e-9));
        assertThat(mix.mixBeforeSeconds()).isCloseTo(4.9, within(1e-9));
        assertThat(mix.mixAfterSeconds()).isCloseTo(1.9, within(1e-9));
        assertThat(mix.failures()).isZero();
    }

    @Test
    void failedRunsAreCountedAndLeftOutOfTheMediansAndAQueryThatNeverAnsweredHasNoSpeedup() {
        List<QuerySample> before = List.of(new QuerySample("count", 0, 2_000, null),
                new QuerySample("count", 2_000, 2_100, "Query failed: table changed"),
                new QuerySample("top", 3_000, 3_500, "Query failed"));
        List<QuerySample> after = List.of(new QuerySample("count", 0, 500, null),
                new QuerySample("top", 600, 700, null));

        QueryMixSpeedup mix = QueryMixSpeedup.of(before, after);

        assertThat(mix.failures()).isEqualTo(2);
        assertThat(mix.medianBeforeSeconds()).containsOnlyKeys("count");
        assertThat(mix.speedups()).containsOnlyKeys("count");
        assertThat(mix.geometricMean()).isCloseTo(4.0, within(1e-9));
    }

    @Test
    void aMixWithoutAnyAnsweredQueryHasNoGeometricMean() {
        QueryMixSpeedup mix = QueryMixSpeedup.of(List.of(new QuerySample("count", 0, 10, "down")), List.of());

        assertThat(mix.speedups()).isEmpty();
        assertThat(mix.geometricMean()).isNaN();
    }

    @Test
    void theTrialsGeometricMeansGiveTheTargetWithItsIntervalOnTheLogarithms() {
        Summary overTrials = Statistics.geometricMean(List.of(2.0, 4.0, 8.0));

        // logs ln2, ln4, ln8: mean ln4, sd ln2; half = 4.303 · ln2 / √3
        double half = 4.303 * Math.log(2) / Math.sqrt(3);
        Target target = Target.reported("query-mix geometric-mean speedup", overTrials, "×");
        assertThat(target.verdict()).isEqualTo(Target.Verdict.MET);
        assertThat(target.measured()).isCloseTo(4.0, within(1e-9));
        assertThat(overTrials.ciLow()).isCloseTo(4.0 * Math.exp(-half), within(1e-9));
        assertThat(overTrials.ciHigh()).isCloseTo(4.0 * Math.exp(half), within(1e-9));
        assertThat(target.detail()).isEqualTo("reported: " + Formats.number(overTrials.mean()) + "× ["
                + Formats.number(overTrials.ciLow()) + "×, " + Formats.number(overTrials.ciHigh()) + "×]");
        assertThat(target.detail()).endsWith(" [0.71×, 22.4×]");
    }

    @Test
    void oneTrialIsReportedWithoutAnIntervalAndNoTrialIsNotEvaluated() {
        assertThat(Target.reported("speedup", Statistics.geometricMean(List.of(2.5)), "×").detail())
                .isEqualTo("reported: 2.50× (n=1, no CI)");
        Target none = Target.reported("speedup", Statistics.geometricMean(List.of()), "×");
        assertThat(none.verdict()).isEqualTo(Target.Verdict.NOT_EVALUATED);
        assertThat(none.detail()).isEqualTo("not evaluated: no measurement");
    }
}
