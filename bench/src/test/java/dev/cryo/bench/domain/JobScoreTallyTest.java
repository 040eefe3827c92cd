package dev.cryo.bench.domain;

import dev.cryo.contracts.Grade;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.JobOutcome;
import dev.cryo.contracts.event.JobScored;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class JobScoreTallyTest {

    private static final TableId TABLE = TableId.of("lakehouse", "b1_s1_t0_cryo", "fragmenting_0");

    /** A job's score: expected 85 from 40; {@code actual} null is ungraded. */
    private static JobScored score(String job, Integer actual, boolean noOp, String message) {
        return new JobScored(job, "plan-" + job, TABLE, JobOutcome.SUCCEEDED, 40, 85, actual,
                actual == null ? null : Grade.of(actual), actual == null ? null : "scan-" + job, List.of(), noOp,
                noOp ? List.of(Operation.EXPIRE_SNAPSHOTS) : List.of(), message, Instant.parse("2026-12-01T10:00:00Z"));
    }

    private static JobScoreTally graded(int reached, int shortOfExpected) {
        return new JobScoreTally(reached + shortOfExpected, reached, shortOfExpected, 0, 0, 0, List.of(), List.of());
    }

    @Test
    void everyJobCountsInExactlyOneClassAndARedeliveredScoreCountsOnce() {
        List<JobScored> scores = List.of(
                score("a", 90, false, "score 40 → 90 (A), expected 85: 5 points above"),
                score("a", 90, false, "score 40 → 90 (A), expected 85: 5 points above"),
                score("b", 70, false, "score 40 → 70 (C), expected 85: 15 points short"),
                score("c", 90, true, "no-op: expire_snapshots changed nothing; score 90 → 90 (A), expected 85: 5 points above"),
                score("d", null, false, "no grade of a scan that started after the job's last change arrived within PT30M"),
                score("f", 85, false, "score 40 → 85 (B), expected 85: reached"));

        JobScoreTally tally = JobScoreTally.of(List.of("a", "b", "c", "d", "e"), scores);

        // e finished without a score; f was scored without a seen end: both are jobs
        assertThat(tally).extracting(JobScoreTally::jobs, JobScoreTally::reached, JobScoreTally::shortOfExpected,
                JobScoreTally::noOp, JobScoreTally::ungraded, JobScoreTally::unscored, JobScoreTally::scored)
                .containsExactly(6, 2, 1, 1, 1, 1, 5);
        assertThat(tally.reachedShare()).isCloseTo(2.0 / 3, within(1e-12));
        assertThat(tally.shortMessages()).containsExactly(
                "b1_s1_t0_cryo.fragmenting_0 (b): score 40 → 70 (C), expected 85: 15 points short");
        assertThat(tally.noOpMessages()).containsExactly("b1_s1_t0_cryo.fragmenting_0 (c): no-op: expire_snapshots "
                + "changed nothing; score 90 → 90 (A), expected 85: 5 points above");
    }

    @Test
    void theShareIsOverAllTrialsPooledNotTheMeanOfTheTrialsShares() {
        // per trial 100 % and 90 %: their mean would meet 95 %, the pooled count (19 of 21) does not
        JobScoreTally pooled = JobScoreTally.pooled(List.of(graded(1, 0), graded(18, 2)));

        assertThat(pooled.reachedShare()).isCloseTo(19.0 / 21, within(1e-12));
        Target share = pooled.targets().get(0);
        assertThat(share.verdict()).isEqualTo(Target.Verdict.MISSED);
        assertThat(share.measured()).isCloseTo(90.476, within(1e-3));
        assertThat(share.detail()).isEqualTo("missed by 4.52 % (4.8 %): 90.5 % < 95 % (19 of 21)");
    }

    @Test
    void nineteenOfTwentyMeetsTheGoalExactlyAndNoOpUngradedAndUnscoredJobsStayOutsideTheShare() {
        JobScoreTally tally = new JobScoreTally(24, 19, 1, 2, 1, 1, List.of(), List.of("x"));

        List<Target> targets = tally.targets();

        assertThat(tally.reachedShare()).isEqualTo(0.95);
        assertThat(targets).extracting(Target::description).containsExactly(JobScoreTally.SHARE_TARGET,
                JobScoreTally.NO_OP_TARGET);
        assertThat(targets.get(0).verdict()).isEqualTo(Target.Verdict.MET);
        assertThat(targets.get(0).detail()).isEqualTo("met: 95 % ≥ 95 % (19 of 20)");
        assertThat(targets.get(1).verdict()).isEqualTo(Target.Verdict.MISSED);
        assertThat(targets.get(1).detail()).isEqualTo("missed by 2 jobs: 2 jobs > 0 jobs");
    }

    @Test
    void withoutAGradedJobTheShareIsNotEvaluatedAndWithoutAJobNeitherTargetIs() {
        List<Target> onlyNoOps = new JobScoreTally(3, 0, 0, 2, 0, 1, List.of(), List.of()).targets();
        List<Target> none = JobScoreTally.pooled(List.of()).targets();

        assertThat(onlyNoOps).extracting(Target::verdict).containsExactly(Target.Verdict.NOT_EVALUATED,
                Target.Verdict.MISSED);
        assertThat(onlyNoOps.get(0).detail())
                .isEqualTo("not evaluated: no job was graded against its expected score (2 no-op, 0 ungraded, 1 unscored)");
        assertThat(none).extracting(Target::detail).containsExactly("not evaluated: Cryo ran no job",
                "not evaluated: Cryo ran no job");
        assertThat(JobScoreTally.pooled(List.of()).reachedShare()).isNull();
    }

    @Test
    void pooledTrialsKeepTheirCountsButOnlyTheFirstMessagesOfEachKind() {
        JobScoreTally first = new JobScoreTally(3, 1, 2, 0, 0, 0, List.of("short 1", "short 2"), List.of());
        JobScoreTally second = new JobScoreTally(4, 0, 2, 1, 0, 1, List.of("short 3", "short 4"), List.of("no-op 1"));

        JobScoreTally pooled = first.plus(second);

        assertThat(pooled).extracting(JobScoreTally::jobs, JobScoreTally::reached, JobScoreTally::shortOfExpected,
                JobScoreTally::noOp, JobScoreTally::unscored).containsExactly(7, 1, 4, 1, 1);
        assertThat(pooled.shortMessages()).containsExactly("short 1", "short 2", "short 3");
        assertThat(pooled.noOpMessages()).containsExactly("no-op 1");
    }

    @Test
    void countsThatDoNotAddUpToTheJobsAreRefused() {
        assertThatThrownBy(() -> new JobScoreTally(5, 1, 1, 1, 1, 0, List.of(), List.of()))
                .hasMessage("Cannot tally job scores: 1 reached + 1 short + 1 no-op + 1 ungraded + 0 unscored ≠ 5 jobs");
        assertThatThrownBy(() -> new JobScoreTally(0, 1, -1, 0, 0, 0, List.of(), List.of()))
                .hasMessage("Cannot tally job scores: a count is negative (-1)");
    }

    @Test
    void eachClassIsAMetricWithOneCountPerTrial() {
        List<Metric> metrics = JobScoreTally.metrics(List.of(graded(4, 1),
                new JobScoreTally(3, 1, 0, 1, 0, 1, List.of(), List.of())));

        assertThat(metrics).extracting(Metric::name).containsExactly("jobs finished", "jobs scored",
                "jobs that reached the expected score", "jobs short of the expected score", "no-op jobs",
                "ungraded jobs (scored without a grade)", "unscored jobs (no JobScored in time)");
        assertThat(metrics).allSatisfy(metric -> assertThat(metric.contender()).isEqualTo("cryo"));
        assertThat(metrics).extracting(Metric::perTrial).containsExactly(List.of(5.0, 3.0), List.of(5.0, 2.0),
                List.of(4.0, 1.0), List.of(1.0, 0.0), List.of(0.0, 1.0), List.of(0.0, 0.0), List.of(0.0, 1.0));
    }

    @Test
    void aScenarioGetsItsJobScoresAndTheirTargetsOnlyWhenCryoRanAJob() {
        ScenarioResult scenario = new ScenarioResult(5, "reaction", ScenarioResult.SCORED, Map.of(),
                List.of(new Metric("commit → graded p95", "s", "cryo", List.of(0.9))), List.of(),
                List.of(Target.atMost("graded p95 ≤ 2 s", List.of(0.9), 2.0, " s")), List.of(), List.of(), List.of());

        ScenarioResult withJobs = scenario.withJobScores(List.of(graded(2, 0), graded(1, 1)));
        ScenarioResult withoutJobs = scenario.withJobScores(List.of(JobScoreTally.pooled(List.of())));

        assertThat(withJobs.jobScores()).isEqualTo(graded(3, 1));
        assertThat(withJobs.targets()).extracting(Target::description).containsExactly("graded p95 ≤ 2 s",
                JobScoreTally.SHARE_TARGET, JobScoreTally.NO_OP_TARGET);
        assertThat(withJobs.targets().get(1).detail()).isEqualTo("missed by 20 % (21.1 %): 75 % < 95 % (3 of 4)");
        assertThat(withJobs.metrics()).hasSize(8);
        assertThat(withoutJobs.jobScores().jobs()).isZero();
        assertThat(withoutJobs.targets()).hasSize(1);
        assertThat(withoutJobs.metrics()).hasSize(1);
        assertThat(scenario.jobScores()).isNull();
    }
}
