package dev.cryo.bench.domain;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class StatisticsTest {

    @Test
    void threeTrialsGiveTheStudentTIntervalWithTwoDegreesOfFreedom() {
        Summary summary = Statistics.summarize(List.of(10.0, 12.0, 14.0));

        assertThat(summary.mean()).isEqualTo(12.0);
        assertThat(summary.standardDeviation()).isEqualTo(2.0);
        // 4.303 * 2 / sqrt(3) = 4.9687
        assertThat(summary.ciLow()).isCloseTo(12.0 - 4.9687, within(1e-3));
        assertThat(summary.ciHigh()).isCloseTo(12.0 + 4.9687, within(1e-3));
    }

    @Test
    void oneTrialHasAMeanButNoInterval() {
        Summary summary = Statistics.summarize(List.of(3.5));

        assertThat(summary.mean()).isEqualTo(3.5);
        assertThat(summary.hasInterval()).isFalse();
        assertThat(Formats.withInterval(summary)).isEqualTo("3.50 (n=1, no CI)");
    }

    @Test
    void noTrialsHaveNoMean() {
        assertThat(Statistics.summarize(List.of()).mean()).isNull();
        assertThat(Formats.withInterval(Statistics.summarize(List.of()))).isEqualTo("n/a");
    }

    @Test
    void tQuantilesFollowTheTableAndTendToTheNormal() {
        assertThat(Statistics.tQuantile975(1)).isEqualTo(12.706);
        assertThat(Statistics.tQuantile975(2)).isEqualTo(4.303);
        assertThat(Statistics.tQuantile975(30)).isEqualTo(2.042);
        assertThat(Statistics.tQuantile975(200)).isEqualTo(1.960);
        assertThatThrownBy(() -> Statistics.tQuantile975(0))
                .hasMessage("Cannot give a t quantile: degrees of freedom must be at least 1, got 0");
    }

    @Test
    void ratiosArePerTrialAndLeaveOutZeroDenominators() {
        assertThat(Statistics.ratios(List.of(2.0, 3.0, 4.0), List.of(4.0, 0.0, 2.0))).containsExactly(0.5, 2.0);
        assertThatThrownBy(() -> Statistics.ratios(List.of(1.0), List.of(1.0, 2.0)))
                .hasMessage("Cannot pair trials: 1 numerators but 2 denominators");
    }

    @Test
    void geometricMeanIntervalIsTakenOnLogarithms() {
        Summary summary = Statistics.geometricMean(List.of(2.0, 8.0));

        assertThat(summary.mean()).isCloseTo(4.0, within(1e-9));
        // logs ln2, ln8: mean ln4, sd = (ln8 - ln2)/sqrt(2); half = 12.706 * sd / sqrt(2)
        double half = 12.706 * (Math.log(8) - Math.log(2)) / 2;
        assertThat(summary.ciLow()).isCloseTo(Math.exp(Math.log(4) - half), within(1e-9));
        assertThat(summary.ciHigh()).isCloseTo(Math.exp(Math.log(4) + half), within(1e-3));
        assertThatThrownBy(() -> Statistics.geometricMean(List.of(1.0, 0.0)))
                .hasMessage("Cannot take a geometric mean of [1.0, 0.0]: every speedup must be a positive finite number");
    }

    @Test
    void percentilesUseTheNearestRank() {
        List<Double> samples = List.of(5.0, 1.0, 4.0, 2.0, 3.0, 10.0, 9.0, 8.0, 7.0, 6.0);

        assertThat(Statistics.percentile(samples, 50)).isEqualTo(5.0);
        assertThat(Statistics.percentile(samples, 95)).isEqualTo(10.0);
        assertThat(Statistics.percentile(samples, 10)).isEqualTo(1.0);
        assertThat(Statistics.percentile(List.of(), 50)).isNaN();
        assertThatThrownBy(() -> Statistics.percentile(samples, 0)).hasMessage("Cannot take percentile 0.0: it must be in (0, 100]");
    }

    @Test
    void nonFiniteValuesAreRefused() {
        assertThatThrownBy(() -> Statistics.summarize(List.of(1.0, Double.NaN)))
                .hasMessage("Cannot summarize [1.0, NaN]: every value must be a finite number");
    }

    @Test
    void aTargetJudgedOnEveryTrialIsMissedByOneBadTrialThatTheMeanWouldHide() {
        Target met = Target.atMost("p95 ≤ 2 s", List.of(1.5, 1.9, 1.2), 2.0, " s");
        assertThat(met.verdict()).isEqualTo(Target.Verdict.MET);
        assertThat(met.rule()).isEqualTo(Target.Rule.EVERY_TRIAL);
        assertThat(met.measured()).isEqualTo(1.9);
        assertThat(met.detail()).isEqualTo("met in all 3 trials: worst 1.90 s ≤ 2 s");

        // mean 1.6 s: a verdict on the mean would say met
        Target missed = Target.atMost("p95 ≤ 2 s", List.of(1.0, 1.3, 2.5), 2.0, " s");
        assertThat(missed.verdict()).isEqualTo(Target.Verdict.MISSED);
        assertThat(missed.measured()).isEqualTo(2.5);
        assertThat(missed.detail()).isEqualTo("missed in 1 of 3 trials: worst 2.50 s > 2 s (by 0.50 s, 25.0 %)");

        Target shortfall = Target.atLeast("100 % at B", List.of(1.0, 0.8), 1.0, "");
        assertThat(shortfall.detail()).isEqualTo("missed in 1 of 2 trials: worst 0.80 < 1 (by 0.20, 20.0 %)");
        assertThat(Target.atMost("zero failures", List.of(0.0), 0, "").detail()).isEqualTo("met in the one trial: worst 0 ≤ 0");
        assertThat(Target.atMost("x", List.of(), 1, "").verdict()).isEqualTo(Target.Verdict.NOT_EVALUATED);
        assertThat(Target.atMost("x", null, 1, "").detail()).isEqualTo("not evaluated: no measurement");
    }

    @Test
    void withinComparesEachTrialWithItsOwnReference() {
        Target met = Target.within("files ± 5 %", List.of(104.0, 98.0), List.of(100.0, 100.0), 0.05);
        assertThat(met.verdict()).isEqualTo(Target.Verdict.MET);
        assertThat(met.detail()).isEqualTo("met in all 2 trials: worst 104 vs 100 (4.0 % apart, tolerance 5.0 %)");

        // the means (103.5 vs 100) are 3.5 % apart; the second trial alone is 10 % off its own reference
        Target missed = Target.within("files ± 5 %", List.of(97.0, 110.0), List.of(100.0, 100.0), 0.05);
        assertThat(missed.verdict()).isEqualTo(Target.Verdict.MISSED);
        assertThat(missed.detail()).isEqualTo("missed in 1 of 2 trials: worst 110 vs 100 (10.0 % apart, tolerance 5.0 %)");
    }

    @Test
    void aWholeRunTargetJudgesOneValueAndSaysByHowMuchItIsMissed() {
        Target missed = Target.wholeRunAtMost("RSS ≤ 512 MiB", 600.0, 512, " MiB");
        assertThat(missed.rule()).isEqualTo(Target.Rule.WHOLE_RUN);
        assertThat(missed.detail()).isEqualTo("missed by 88 MiB (17.2 %): 600 MiB > 512 MiB");
        assertThat(Target.wholeRunAtLeast("share ≥ 95 %", 96.0, 95, " %").detail()).isEqualTo("met: 96 % ≥ 95 %");
        assertThat(Target.wholeRunAtMost("x", null, 1, "").verdict()).isEqualTo(Target.Verdict.NOT_EVALUATED);
    }

    @Test
    void aTargetFromAResultWrittenBeforeTheRulesSaysItWasJudgedOnTheMean() {
        Target older = new Target("graded p95 ≤ 2 s", null, 1.5, 2.0, Target.Verdict.MET, "met: 1.50 s ≤ 2 s");
        assertThat(older.ruleLabel()).isEqualTo("mean of the trials (results before the rules)");
        assertThat(Target.notEvaluated(Target.Rule.REPORTED, "speedup", "no Trino").ruleLabel())
                .isEqualTo("reported with its interval");
    }
}
