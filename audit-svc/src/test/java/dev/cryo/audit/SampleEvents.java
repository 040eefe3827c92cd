package dev.cryo.audit;

import dev.cryo.contracts.Check;
import dev.cryo.contracts.Engine;
import dev.cryo.contracts.Grade;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.Severity;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.cloudevents.EventType;
import dev.cryo.contracts.event.ChangeSource;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.Deduction;
import dev.cryo.contracts.event.Estimate;
import dev.cryo.contracts.event.FileCounts;
import dev.cryo.contracts.event.FileSizeTerms;
import dev.cryo.contracts.event.GradeChanged;
import dev.cryo.contracts.event.JobAdmitted;
import dev.cryo.contracts.event.JobDeferred;
import dev.cryo.contracts.event.DeferReason;
import dev.cryo.contracts.event.JobFinished;
import dev.cryo.contracts.event.JobScored;
import dev.cryo.contracts.event.JobHeartbeat;
import dev.cryo.contracts.event.JobRefused;
import dev.cryo.contracts.event.JobRevoked;
import dev.cryo.contracts.event.JobOutcome;
import dev.cryo.contracts.event.JobStarted;
import dev.cryo.contracts.event.MaintenancePlanned;
import dev.cryo.contracts.event.OperationFinished;
import dev.cryo.contracts.event.OperationStatus;
import dev.cryo.contracts.event.PlannedOperation;
import dev.cryo.contracts.event.TableChanged;
import dev.cryo.contracts.event.TableGraded;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.contracts.event.TableTotals;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * One table change's whole chain, one event of every type, as Cryo's services would publish it:
 * change → scan → grade (and grade change) → plan → defer → admit → refusal of an earlier admission →
 * start → heartbeat → operation finished (failed) → revocation → job finished. Tables carry a random suffix: the topics are shared.
 */
public final class SampleEvents {

    public static final String ACTOR = "operator:alice";

    private SampleEvents() {
    }

    public static TableId uniqueTable(String prefix) {
        return TableId.of("lake", "audit_test", prefix + "_" + UUID.randomUUID().toString().substring(0, 8));
    }

    /** A chain of one event per type for the table; the first event's id is every event's correlation id. */
    public static List<EventEnvelope<? extends CryoEvent>> chain(TableId table) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        String planId = "plan-" + UUID.randomUUID();
        String jobId = "job-" + UUID.randomUUID();
        TableChanged changed = new TableChanged(table, ChangeSource.MANUAL, now, 42L, 7L, "append", now, null, null, ACTOR);
        EventEnvelope<TableChanged> start = EventEnvelope.startChain(changed, "/cryo/scanner", now).withActor(ACTOR);
        String correlation = start.correlationId();
        TableScanned scanned = new TableScanned(table, "scan-1", now.plusSeconds(1), Duration.ofMillis(1500), 2, 42L, 7L, now,
                "file:/warehouse/" + table.table(), FileSizeTerms.forTarget(FileSizeTerms.ICEBERG_DEFAULT_TARGET_BYTES),
                new TableTotals(3, 120, 1_000_000, 5_000, 100, 90_000, 0, 0, 0, 0, 0), List.of(), List.of(), null, null,
                null, null, null, null);
        Deduction smallFiles = new Deduction(Check.SMALL_FILES, Severity.CRITICAL, 20, 0.83, 0.5, "share", Operation.OPTIMIZE,
                "83 % of data files are small (limit 50 %)");
        TableGraded graded = new TableGraded(table, "scan-1", 42L, now.plusSeconds(2), 80, Grade.B, 1.0, List.of(smallFiles),
                List.of());
        GradeChanged gradeChanged = new GradeChanged(table, Grade.A, 100, Grade.B, 80, 42L, now.plusSeconds(2),
                List.of(Operation.OPTIMIZE));
        MaintenancePlanned plan = new MaintenancePlanned(planId, table, "scan-1", 42L, now, now.plusSeconds(3), 80, Grade.B, 100,
                List.of(new PlannedOperation(Operation.OPTIMIZE, List.of(Check.SMALL_FILES), List.of(), null, null),
                        new PlannedOperation(Operation.EXPIRE_SNAPSHOTS, List.of(Check.SNAPSHOT_COUNT), List.of(), null, null)),
                new Estimate(100, 90_000, 0, 1), null, ACTOR);
        JobDeferred deferred = new JobDeferred(planId, table, DeferReason.NO_SLOT, "engine trino has no free slot (limit 2)",
                now.plusSeconds(60), now.plusSeconds(4), Engine.TRINO);
        JobAdmitted admitted = new JobAdmitted(jobId, planId, table, Engine.TRINO, 1, now.plusSeconds(5), now.plusSeconds(605),
                "governor-1", plan);
        JobRefused refused = new JobRefused(jobId, planId, table, "executor-2", now.minusSeconds(600), now.minusSeconds(480),
                "lease-expired", "the lease of an earlier admission had ended", now.plusSeconds(5));
        JobRevoked revoked = new JobRevoked(jobId, planId, table, "pause-1", "table paused by operator:alice: freeze",
                now.plusSeconds(9));
        JobStarted started = new JobStarted(jobId, planId, table, Engine.TRINO, "executor-1", 1, now.plusSeconds(6), 0);
        JobHeartbeat heartbeat = new JobHeartbeat(jobId, planId, table, "executor-1", now.plusSeconds(7), Operation.OPTIMIZE,
                1, 3);
        OperationFinished operation = new OperationFinished(jobId, planId, table, Operation.OPTIMIZE, 0, Engine.TRINO, null,
                OperationStatus.FAILED, new FileCounts(100, 90_000, 0, 5_000), FileCounts.ZERO, null, null,
                Duration.ofMillis(2345), 0, "q-1", "TRINO_QUERY_FAILED", "Query exceeded memory limit", now.plusSeconds(8));
        JobFinished finished = new JobFinished(jobId, planId, table, Engine.TRINO, JobOutcome.FAILED, 0, 1,
                Duration.ofMillis(4000), "TRINO_QUERY_FAILED", null, now.plusSeconds(9));
        JobScored scored = new JobScored(jobId, planId, table, JobOutcome.FAILED, 80, 100, 80, Grade.B, "scan-2",
                List.of(smallFiles), false, List.of(), "expected 100, got 80 (B): small-files remains", now.plusSeconds(10));
        List<EventEnvelope<? extends CryoEvent>> chain = new ArrayList<>();
        chain.add(start);
        List<CryoEvent> rest = List.of(scanned, graded, gradeChanged, plan, deferred, admitted, refused, started, heartbeat,
                operation, revoked, finished, scored);
        Instant time = now;
        for (CryoEvent event : rest) {
            time = time.plusSeconds(1);
            chain.add(EventEnvelope.follow(event, source(event), time, correlation).withActor(ACTOR));
        }
        return chain;
    }

    /** A TableChanged starting its own chain, with a few bytes of detail; for volume tests. */
    public static EventEnvelope<TableChanged> change(TableId table, long snapshotId) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        TableChanged changed = new TableChanged(table, ChangeSource.COMMIT_REPORT, now, snapshotId, snapshotId, "append", now,
                null, null, "spark-app-" + snapshotId % 7);
        return EventEnvelope.startChain(changed, "/cryo/commit-reporter", now);
    }

    private static String source(CryoEvent event) {
        return switch (EventType.of(event)) {
            case TABLE_CHANGED, TABLE_SCANNED -> "/cryo/scanner";
            case TABLE_GRADED, GRADE_CHANGED -> "/cryo/scorer";
            case MAINTENANCE_PLANNED -> "/cryo/planner";
            case JOB_ADMITTED, JOB_REVOKED, JOB_DEFERRED -> "/cryo/governor";
            case JOB_REFUSED, JOB_STARTED, JOB_HEARTBEAT, OPERATION_FINISHED, JOB_FINISHED -> "/cryo/executor";
            case JOB_SCORED -> "/cryo/planner";
        };
    }
}
