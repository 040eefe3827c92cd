package dev.cryo.planner.app;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.FileCounts;
import dev.cryo.contracts.event.JobFinished;
import dev.cryo.contracts.event.JobOutcome;
import dev.cryo.contracts.event.JobScored;
import dev.cryo.contracts.event.MaintenancePlanned;
import dev.cryo.contracts.event.OperationFinished;
import dev.cryo.contracts.event.OperationStatus;
import dev.cryo.contracts.event.TableGraded;
import dev.cryo.contracts.event.TableScanned;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;

import static dev.cryo.planner.app.PlanningServiceTest.envelope;
import static dev.cryo.planner.app.PlanningServiceTest.grade;
import static dev.cryo.planner.app.PlanningServiceTest.randomTable;
import static dev.cryo.planner.app.PlanningServiceTest.scan;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * When a job is scored, called directly (no broker) so each order is exact; the storage is the
 * real PostgreSQL. Times are an hour or more in the past, as the sweep's wait (30 minutes) needs.
 */
@QuarkusTest
class JobScoringTest {

    @Inject
    PlanningService planning;

    @Inject
    JobScoring scoring;

    private final Instant t0 = Instant.now().minus(Duration.ofHours(2)).truncatedTo(ChronoUnit.MILLIS);

    @Test
    void aJobIsScoredByTheFirstGradeOfAScanThatStartedAfterItsLastChangeOnce() {
        TableId table = randomTable();
        MaintenancePlanned plan = plan(table);
        String jobId = "job-" + UUID.randomUUID();
        report(operation(jobId, plan, Operation.OPTIMIZE, true, t0.plusSeconds(100)));

        assertThat(report(finished(jobId, plan, t0.plusSeconds(101)))).isEmpty();
        // A scan that started before the job's commit (the watcher saw the commit early) does not show it.
        TableScanned early = scan(table, t0.plusSeconds(99));
        planning.scanned(envelope(early));
        assertThat(scores(planning.graded(envelope(grade(early, t0.plusSeconds(102)))))).isEmpty();
        assertThat(scoring.score(jobId)).isEmpty();

        TableScanned after = scan(table, t0.plusSeconds(110));
        planning.scanned(envelope(after));
        EventEnvelope<TableGraded> grade = envelope(grade(after, t0.plusSeconds(111)));
        List<JobScored> scored = scores(planning.graded(grade));

        assertThat(scored).singleElement().satisfies(score -> {
            assertThat(score.jobId()).isEqualTo(jobId);
            assertThat(score.scanId()).isEqualTo(after.scanId());
            assertThat(score.actualScore()).isEqualTo(80);
            assertThat(score.expectedScore()).isEqualTo(plan.expectedScore());
            assertThat(score.noOp()).isFalse();
        });
        assertThat(scoring.score(jobId)).contains(scored.get(0));
        // The grade's redelivery republishes the same score; a later grade does not score the job again.
        assertThat(scores(planning.graded(grade))).containsExactlyElementsOf(scored);
        TableScanned later = scan(table, t0.plusSeconds(200));
        planning.scanned(envelope(later));
        assertThat(scores(planning.graded(envelope(grade(later, t0.plusSeconds(201)))))).isEmpty();
    }

    /**
     * A job that changed nothing is a no-op by name, scored by the grade of a scan after its end:
     * the latest grade before may predate another job's commit (a fix now planned from a scan
     * taken while another job ran).
     */
    @Test
    void aJobWhoseOperationsChangedNothingIsANoOpScoredByTheGradeAfterItsEnd() {
        TableId table = randomTable();
        MaintenancePlanned plan = plan(table);
        String jobId = "job-" + UUID.randomUUID();
        report(operation(jobId, plan, Operation.OPTIMIZE, false, t0.plusSeconds(100)));
        report(operation(jobId, plan, Operation.EXPIRE_SNAPSHOTS, false, t0.plusSeconds(100)));

        assertThat(report(finished(jobId, plan, t0.plusSeconds(101)))).isEmpty();
        TableScanned after = scan(table, t0.plusSeconds(102));
        planning.scanned(envelope(after));
        List<JobScored> scored = scores(planning.graded(envelope(grade(after, t0.plusSeconds(103)))));

        assertThat(scored).singleElement().satisfies(score -> {
            assertThat(score.noOp()).isTrue();
            assertThat(score.noOpOperations()).containsExactly(Operation.OPTIMIZE, Operation.EXPIRE_SNAPSHOTS);
            assertThat(score.actualScore()).isEqualTo(80);
            assertThat(score.message()).startsWith("no-op: optimize, expire_snapshots changed nothing; ");
        });
    }

    @Test
    void aJobNoGradeShowsIsPublishedUngradedAfterTheWait() {
        TableId table = randomTable();
        MaintenancePlanned plan = plan(table);
        String jobId = "job-" + UUID.randomUUID();
        report(operation(jobId, plan, Operation.OPTIMIZE, null, t0.plusSeconds(100)));
        report(finished(jobId, plan, t0.plusSeconds(101)));

        List<JobScored> swept = scoring.sweep(1000).stream().map(envelope -> envelope.data()).toList();

        assertThat(swept).filteredOn(score -> score.jobId().equals(jobId)).singleElement().satisfies(score -> {
            assertThat(score.actualScore()).isNull();
            assertThat(score.message()).contains("within PT30M (cryo.planner.score-wait)");
        });
        assertThat(scoring.scores(java.util.Optional.of(table), t0, 10)).extracting(JobScored::jobId).containsExactly(jobId);
    }

    private MaintenancePlanned plan(TableId table) {
        TableScanned scan = scan(table, t0);
        planning.scanned(envelope(scan));
        return (MaintenancePlanned) planning.graded(envelope(grade(scan, t0.plusSeconds(1)))).get(0).data();
    }

    @SuppressWarnings("unchecked")
    private List<EventEnvelope<JobScored>> report(CryoEvent event) {
        return scoring.reported((EventEnvelope<CryoEvent>) (EventEnvelope<?>) envelope(event));
    }

    private static List<JobScored> scores(List<? extends EventEnvelope<?>> envelopes) {
        return envelopes.stream().map(EventEnvelope::data).filter(JobScored.class::isInstance).map(JobScored.class::cast)
                .toList();
    }

    private static OperationFinished operation(String jobId, MaintenancePlanned plan, Operation operation, Boolean changed,
                                               Instant at) {
        return new OperationFinished(jobId, plan.planId(), plan.table(), operation, null, Engine.NATIVE, null,
                OperationStatus.SUCCEEDED, FileCounts.ZERO, FileCounts.ZERO, null, changed, Duration.ofSeconds(1), 0, null,
                null, null, at);
    }

    private static JobFinished finished(String jobId, MaintenancePlanned plan, Instant at) {
        return new JobFinished(jobId, plan.planId(), plan.table(), Engine.NATIVE, JobOutcome.SUCCEEDED, 1, 0,
                Duration.ofSeconds(2), null, null, at);
    }
}
