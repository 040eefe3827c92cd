package dev.cryo.planner.domain;

import dev.cryo.contracts.Check;
import dev.cryo.contracts.Grade;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.Severity;
import dev.cryo.contracts.event.Deduction;
import dev.cryo.contracts.event.Estimate;
import dev.cryo.contracts.event.JobOutcome;
import dev.cryo.contracts.event.JobScored;
import dev.cryo.contracts.event.MaintenancePlanned;
import dev.cryo.contracts.event.PlannedOperation;
import dev.cryo.contracts.event.TableGraded;
import dev.cryo.planner.domain.JobScores.FinishedJob;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;

import static dev.cryo.planner.domain.Fixtures.AT;
import static dev.cryo.planner.domain.Fixtures.TABLE;
import static org.assertj.core.api.Assertions.assertThat;

class JobScoresTest {

    private static final Instant FINISHED = AT.plusSeconds(300);
    private static final Instant NOW = AT.plusSeconds(400);
    private static final MaintenancePlanned PLAN = new MaintenancePlanned("plan-1", TABLE, "scan-1", 1L, AT, AT, 64, Grade.D,
            92, List.of(new PlannedOperation(Operation.OPTIMIZE, List.of(Check.SMALL_FILES), List.of(), null, null),
            new PlannedOperation(Operation.EXPIRE_SNAPSHOTS, List.of(Check.SNAPSHOT_COUNT), List.of(), null, null)),
            new Estimate(100, 1000, 0, 1), null, null);

    @Test
    void aJobThatReachedItsExpectedScoreSaysSo() {
        FinishedJob job = job(Set.of(Operation.OPTIMIZE, Operation.EXPIRE_SNAPSHOTS), Set.of(), FINISHED.minusSeconds(5));

        JobScored score = JobScores.scored(job, PLAN, grade(92, List.of()), NOW);

        assertThat(score.reached()).isTrue();
        assertThat(score.noOp()).isFalse();
        assertThat(score.actualGrade()).isEqualTo(Grade.A);
        assertThat(score.remaining()).isEmpty();
        assertThat(score.message()).isEqualTo("score 64 → 92 (A), expected 92: reached");
    }

    @Test
    void aJobShortOfItsPromiseNamesTheDeductionsOfItsOwnOperationsThatRemain() {
        FinishedJob job = job(Set.of(Operation.OPTIMIZE), Set.of(Operation.EXPIRE_SNAPSHOTS), FINISHED.minusSeconds(5));
        Deduction snapshots = new Deduction(Check.SNAPSHOT_COUNT, Severity.WARNING, 8, 187, 100, "snapshots",
                Operation.EXPIRE_SNAPSHOTS, "187 snapshots (limit 100)");
        Deduction orphans = new Deduction(Check.ORPHAN_FILES, Severity.WARNING, 8, 12, 0, "files",
                Check.ORPHAN_FILES.fixedBy(), "12 orphan files");

        JobScored score = JobScores.scored(job, PLAN, grade(84, List.of(snapshots, orphans)), NOW);

        assertThat(score.reached()).isFalse();
        assertThat(score.shortfall()).isEqualTo(8);
        assertThat(score.remaining()).containsExactly(snapshots);
        assertThat(score.noOpOperations()).containsExactly(Operation.EXPIRE_SNAPSHOTS);
        assertThat(score.message()).isEqualTo("score 64 → 84 (B), expected 92: 8 points short; still: snapshot-count "
                + "(187 snapshots (limit 100)); expire_snapshots changed nothing");
    }

    @Test
    void aSucceededJobThatChangedNothingIsANoOpByName() {
        FinishedJob job = job(Set.of(), Set.of(Operation.EXPIRE_SNAPSHOTS), null);

        JobScored score = JobScores.scored(job, PLAN, grade(64, List.of()), NOW);

        assertThat(job.changedNothing()).isTrue();
        // Only a scan after its end shows the table after it: an earlier grade may predate another job's change.
        assertThat(job.shownBy(FINISHED.minusMillis(1))).isFalse();
        assertThat(job.shownBy(FINISHED)).isTrue();
        assertThat(score.noOp()).isTrue();
        assertThat(score.message()).startsWith("no-op: expire_snapshots changed nothing; score 64 → 64");
    }

    @Test
    void onlyAScanThatStartedAfterTheLastChangeShowsTheJob() {
        Instant lastChange = FINISHED.minusSeconds(5);
        FinishedJob job = job(Set.of(Operation.OPTIMIZE), Set.of(), lastChange);

        assertThat(job.shownBy(lastChange.minusMillis(1))).isFalse();
        assertThat(job.shownBy(lastChange)).isTrue();
    }

    @Test
    void aJobNoGradeFollowedIsPublishedWithoutAnActualScoreAndTheSettingThatBoundsTheWait() {
        FinishedJob job = new FinishedJob("job-1", "plan-1", TABLE, JobOutcome.PARTIALLY_SUCCEEDED, Set.of(Operation.OPTIMIZE),
                Set.of(), FINISHED, FINISHED);

        JobScored score = JobScores.ungraded(job, PLAN, Duration.ofMinutes(30), "cryo.planner.score-wait", NOW);

        assertThat(score.actualScore()).isNull();
        assertThat(score.reached()).isFalse();
        assertThat(score.shortfall()).isNull();
        assertThat(score.message()).isEqualTo("job partially-succeeded; no grade of a scan that started after the job's "
                + "last change arrived within PT30M (cryo.planner.score-wait): expected 92 from 64, not measured");
    }

    private static FinishedJob job(Set<Operation> changed, Set<Operation> noOps, Instant lastChangeAt) {
        return new FinishedJob("job-1", "plan-1", TABLE, JobOutcome.SUCCEEDED, changed, noOps, lastChangeAt, FINISHED);
    }

    private static TableGraded grade(int score, List<Deduction> deductions) {
        return new TableGraded(TABLE, "scan-2", 2L, NOW, score, Grade.of(score), 1.0, deductions, List.of());
    }
}
