package dev.cryo.audit.domain;

import dev.cryo.contracts.Operation;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.Deduction;
import dev.cryo.contracts.event.GradeChanged;
import dev.cryo.contracts.event.JobAdmitted;
import dev.cryo.contracts.event.JobDeferred;
import dev.cryo.contracts.event.JobFinished;
import dev.cryo.contracts.event.JobHeartbeat;
import dev.cryo.contracts.event.JobRefused;
import dev.cryo.contracts.event.JobRevoked;
import dev.cryo.contracts.event.JobScored;
import dev.cryo.contracts.event.JobStarted;
import dev.cryo.contracts.event.MaintenancePlanned;
import dev.cryo.contracts.event.OperationFinished;
import dev.cryo.contracts.event.TableChanged;
import dev.cryo.contracts.event.TableGraded;
import dev.cryo.contracts.event.TableScanned;

import java.time.Duration;
import java.util.Collection;
import java.util.List;

/**
 * The searchable columns of a Cryo event: its status word, the job, plan, engine and operations it
 * is about, and one line for people. Every event type of the contract has its branch; a type this
 * version does not know is refused rather than stored half-described.
 */
public final class EventSummaries {

    /** The columns of an event the contract accepted. */
    public static EventColumns of(EventEnvelope<CryoEvent> envelope) {
        Columns c = new Columns();
        CryoEvent data = envelope.data();
        if (!tableEvent(data, c) && !admissionEvent(data, c) && !runEvent(data, c)) {
            throw new IllegalStateException("Cannot audit " + data.getClass().getName() + ": unknown event type");
        }
        String actor = envelope.actor() != null ? envelope.actor() : c.actor;
        return new EventColumns(envelope.type().id(), envelope.source(), data.table().toString(), c.operations, c.engine,
                c.status, c.duration == null ? null : c.duration.toMillis(), actor, c.reason, c.detail,
                envelope.correlationId(), c.jobId, c.planId);
    }

    /** Mutable scratch for {@link #of}: each event type fills what it carries. */
    private static final class Columns {
        String status;
        String actor;
        String engine;
        String reason;
        String detail;
        String jobId;
        String planId;
        Duration duration;
        List<String> operations = List.of();
    }

    private static List<String> fixedOrder(Collection<Operation> operations) {
        return Operation.inFixedOrder(operations).stream().map(Operation::id).toList();
    }

    /** What a table's change, scan, grade and plan say. */
    private static boolean tableEvent(CryoEvent data, Columns c) {
        if (data instanceof TableChanged change) {
            c.status = "changed";
            c.actor = change.actor();
            c.jobId = change.cryoJobId();
            c.detail = "noticed by " + change.source().id()
                    + (change.snapshotId() == null ? "" : ", snapshot " + change.snapshotId())
                    + (change.cryoJobId() == null ? "" : ", committed by Cryo job " + change.cryoJobId());
        } else if (data instanceof TableScanned scan) {
            c.status = "scanned";
            c.duration = scan.scanDuration();
            c.detail = (scan.snapshotId() == null ? "no snapshot" : "snapshot " + scan.snapshotId()) + ": "
                    + scan.totals().dataFiles() + " data files, " + scan.totals().partitions() + " partitions";
        } else if (data instanceof TableGraded graded) {
            c.status = "graded";
            c.operations = fixedOrder(graded.deductions().stream().map(Deduction::fix).toList());
            c.detail = "grade " + graded.grade() + ", score " + graded.score() + ", " + graded.deductions().size()
                    + " deduction(s)";
        } else if (data instanceof GradeChanged changed) {
            c.status = "grade-changed";
            c.operations = fixedOrder(changed.fixes());
            c.detail = changed.previousGrade() == null
                    ? "first grade " + changed.grade() + " (score " + changed.score() + ")"
                    : "grade " + changed.previousGrade() + " → " + changed.grade() + " (score " + changed.previousScore()
                    + " → " + changed.score() + ")";
        } else if (data instanceof MaintenancePlanned plan) {
            c.status = "planned";
            c.planId = plan.planId();
            c.actor = plan.actor();
            c.operations = fixedOrder(plan.operationList());
            c.detail = "score " + plan.score() + " → " + plan.expectedScore() + " expected"
                    + (plan.supersedesPlanId() == null ? "" : ", supersedes plan " + plan.supersedesPlanId());
        } else {
            return false;
        }
        return true;
    }

    /** What the governor decided about a plan. */
    private static boolean admissionEvent(CryoEvent data, Columns c) {
        if (data instanceof JobAdmitted admitted) {
            c.status = "admitted";
            c.jobId = admitted.jobId();
            c.planId = admitted.planId();
            c.engine = admitted.engine().id();
            c.actor = admitted.plan().actor();
            c.operations = fixedOrder(admitted.plan().operationList());
            c.detail = "slot " + admitted.slot() + " on " + admitted.engine().id() + ", admitted by " + admitted.governorId();
        } else if (data instanceof JobRevoked revoked) {
            c.status = "revoked";
            c.jobId = revoked.jobId();
            c.planId = revoked.planId();
            c.reason = "table-paused";
            c.detail = revoked.message() + " (pause " + revoked.pauseId() + ")";
        } else if (data instanceof JobDeferred deferred) {
            c.status = "deferred";
            c.planId = deferred.planId();
            c.engine = deferred.engine() == null ? null : deferred.engine().id();
            c.reason = deferred.reason().id();
            c.detail = deferred.message() + (deferred.retryAfter() == null ? "" : ", retry after " + deferred.retryAfter());
        } else if (data instanceof JobRefused refused) {
            c.status = "refused";
            c.jobId = refused.jobId();
            c.planId = refused.planId();
            c.reason = refused.reason();
            c.detail = refused.message();
        } else {
            return false;
        }
        return true;
    }

    /** What an executor did with an admitted job. */
    private static boolean runEvent(CryoEvent data, Columns c) {
        if (data instanceof JobStarted started) {
            c.status = "started";
            c.jobId = started.jobId();
            c.planId = started.planId();
            c.engine = started.engine().id();
            c.detail = "attempt " + started.attempt() + " on " + started.executorId()
                    + (started.chunksAlreadyCommitted() == 0 ? "" : ", " + started.chunksAlreadyCommitted()
                    + " chunk(s) already committed");
        } else if (data instanceof JobHeartbeat heartbeat) {
            c.status = "running";
            c.jobId = heartbeat.jobId();
            c.planId = heartbeat.planId();
            c.operations = heartbeat.operation() == null ? List.of() : List.of(heartbeat.operation().id());
            c.detail = heartbeat.chunksDone() + "/" + heartbeat.chunksTotal() + " chunks on " + heartbeat.executorId();
        } else if (data instanceof OperationFinished finished) {
            c.status = finished.status().id();
            c.jobId = finished.jobId();
            c.planId = finished.planId();
            c.engine = finished.engine().id();
            c.operations = List.of(finished.operation().id());
            c.duration = finished.duration();
            c.reason = finished.errorCode();
            c.detail = finished.message() != null ? finished.message()
                    : finished.operation().id() + (finished.chunkIndex() == null ? "" : " chunk " + finished.chunkIndex())
                    + " " + finished.status().id();
        } else if (data instanceof JobFinished finished) {
            c.status = finished.outcome().id();
            c.jobId = finished.jobId();
            c.planId = finished.planId();
            c.engine = finished.engine().id();
            c.duration = finished.duration();
            c.reason = finished.errorCode();
            c.detail = finished.message() != null ? finished.message()
                    : finished.operationsSucceeded() + " operation(s) succeeded, " + finished.operationsFailed() + " failed";
        } else if (data instanceof JobScored scored) {
            // The promise kept or not: the difference is in the detail, its kind in the reason.
            c.status = "scored";
            c.jobId = scored.jobId();
            c.planId = scored.planId();
            c.operations = fixedOrder(scored.noOpOperations());
            c.reason = scored.noOp() ? "no-op" : scored.actualScore() == null ? "ungraded"
                    : scored.reached() ? "reached" : "short";
            c.detail = scored.message();
        } else {
            return false;
        }
        return true;
    }

    private EventSummaries() {
    }
}
