package dev.cryo.governor.app;

import dev.cryo.contracts.Check;
import dev.cryo.contracts.Engine;
import dev.cryo.contracts.Grade;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.Estimate;
import dev.cryo.contracts.event.FileCounts;
import dev.cryo.contracts.event.JobFinished;
import dev.cryo.contracts.event.JobHeartbeat;
import dev.cryo.contracts.event.JobOutcome;
import dev.cryo.contracts.event.JobStarted;
import dev.cryo.contracts.event.MaintenancePlanned;
import dev.cryo.contracts.event.OperationFinished;
import dev.cryo.contracts.event.OperationStatus;
import dev.cryo.contracts.event.PlannedOperation;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;

/** Events as the planner and executors send them, for tests. */
public final class Events {

    /** A table of its own for one test: topics are shared with other tests and earlier runs. */
    public static TableId uniqueTable(String prefix) {
        return TableId.parse("lake.governor_test." + prefix + "_" + UUID.randomUUID().toString().substring(0, 8));
    }

    public static MaintenancePlanned plan(TableId table, int score, String supersedesPlanId) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        return new MaintenancePlanned(UUID.randomUUID().toString(), table, UUID.randomUUID().toString(), 1L, null, now, score,
                Grade.D, 100, List.of(new PlannedOperation(Operation.EXPIRE_SNAPSHOTS, List.of(Check.SNAPSHOT_COUNT),
                List.of(), null, null)), Estimate.ZERO, supersedesPlanId, null);
    }

    /** A plan made from a scan of {@code snapshotId} that began at {@code scanStartedAt}. */
    public static MaintenancePlanned planFromScan(TableId table, int score, long snapshotId, Instant scanStartedAt,
                                                  String supersedesPlanId) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        return new MaintenancePlanned(UUID.randomUUID().toString(), table, UUID.randomUUID().toString(), snapshotId,
                scanStartedAt, now, score, Grade.D, 100, List.of(new PlannedOperation(Operation.OPTIMIZE,
                List.of(Check.SMALL_FILES), List.of(), null, null)), Estimate.ZERO, supersedesPlanId, null);
    }

    /** An operation of the job that committed {@code snapshotId} at {@code at}. */
    public static EventEnvelope<OperationFinished> committed(String jobId, String planId, TableId table,
                                                             long snapshotId, Instant at) {
        return EventEnvelope.startChain(new OperationFinished(jobId, planId, table, Operation.OPTIMIZE, null,
                Engine.NATIVE, null, OperationStatus.SUCCEEDED, new FileCounts(40, 4_000, 0, 400),
                new FileCounts(1, 4_000, 0, 400), snapshotId, true, Duration.ofMillis(300), 0, null, null, "rewrote 40 files",
                at), "/cryo/executor", at);
    }

    /** A plan of the event flow: no actor. */
    public static EventEnvelope<MaintenancePlanned> planned(MaintenancePlanned plan) {
        return EventEnvelope.startChain(plan, "/cryo/planner", plan.plannedAt());
    }

    /** A plan an operator asked for ("fix now"): the envelope carries the operator as its actor. */
    public static EventEnvelope<MaintenancePlanned> fixNow(MaintenancePlanned plan, String operator) {
        return planned(plan).withActor(operator);
    }

    public static EventEnvelope<JobStarted> started(String jobId, String planId, TableId table, Engine engine) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        return EventEnvelope.startChain(new JobStarted(jobId, planId, table, engine, "executor-test", 1, now, 0),
                "/cryo/executor", now);
    }

    public static EventEnvelope<JobHeartbeat> heartbeat(String jobId, String planId, TableId table) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        return EventEnvelope.startChain(new JobHeartbeat(jobId, planId, table, "executor-test", now,
                Operation.EXPIRE_SNAPSHOTS, 0, 0), "/cryo/executor", now);
    }

    public static EventEnvelope<JobFinished> finished(String jobId, String planId, TableId table, Engine engine) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        return EventEnvelope.startChain(new JobFinished(jobId, planId, table, engine, JobOutcome.SUCCEEDED, 1, 0,
                Duration.ofMillis(200), null, "done", now), "/cryo/executor", now);
    }

    public static EventEnvelope<JobFinished> failed(String jobId, String planId, TableId table, Engine engine,
                                                    String errorCode, String message) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        return EventEnvelope.startChain(new JobFinished(jobId, planId, table, engine, JobOutcome.FAILED, 0, 1,
                Duration.ofMillis(200), errorCode, message, now), "/cryo/executor", now);
    }

    private Events() {
    }
}
