package dev.cryo.governor.app;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.cloudevents.EventType;
import dev.cryo.contracts.event.JobAdmitted;
import dev.cryo.contracts.event.JobFinished;
import dev.cryo.contracts.event.JobHeartbeat;
import dev.cryo.contracts.event.JobRefused;
import dev.cryo.contracts.event.JobResult;
import dev.cryo.contracts.event.JobRevoked;
import dev.cryo.contracts.event.JobStarted;
import dev.cryo.contracts.event.MaintenancePlanned;
import dev.cryo.contracts.event.OperationFinished;
import dev.cryo.contracts.json.EventJson;
import dev.cryo.governor.config.GovernorConfig;
import dev.cryo.governor.domain.Leases;
import dev.cryo.governor.domain.Pause;
import dev.cryo.governor.domain.TableLock;
import dev.cryo.governor.persistence.JobStore.Job;
import dev.cryo.governor.persistence.JobStore;
import dev.cryo.governor.persistence.OutboxStore;
import dev.cryo.governor.persistence.PlanStore.ReceivedPlan;
import dev.cryo.governor.persistence.PlanStore;
import dev.cryo.governor.persistence.RuleStore;
import dev.cryo.platform.config.ServiceInstance;
import dev.cryo.platform.messaging.EventIds;
import io.quarkus.logging.Log;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What executors report about jobs: a start or heartbeat renews the job's lease, a finish
 * releases its table and slot and starts the cooldown. A job whose lease runs out is admitted
 * again under the same id, until its attempts are used up, unless its table is paused meanwhile.
 * An executor's refusal of a stale admission only notes why: the lease's expiry decides what
 * follows. A pause revokes the jobs that hold the tables it matches (JobRevoked), which their
 * executors end as cancelled.
 */
@ApplicationScoped
public class JobEvents {

    private static final int EXPIRY_LIMIT = 100;

    private final JobStore jobs;
    private final PlanStore plans;
    private final RuleStore rules;
    private final OutboxStore outbox;
    private final GovernorMetrics metrics;
    private final ServiceInstance instance;
    private final Clock clock;
    private final Leases leases;
    private final AdmissionService admissions;

    JobEvents(JobStore jobs, PlanStore plans, RuleStore rules, OutboxStore outbox, GovernorMetrics metrics,
              ServiceInstance instance, Clock clock, GovernorConfig config, AdmissionService admissions) {
        this.admissions = admissions;
        this.jobs = jobs;
        this.plans = plans;
        this.rules = rules;
        this.outbox = outbox;
        this.metrics = metrics;
        this.instance = instance;
        this.clock = clock;
        this.leases = new Leases(config.lease(), config.maxAttempts());
    }

    /**
     * Applies one result event.
     *
     * @return the engine whose slot the event freed, to wake the plans that wait for it
     */
    public Optional<Engine> apply(JobResult result) {
        Optional<Job> known = QuarkusTransaction.requiringNew().call(() -> jobs.find(result.jobId()));
        if (known.isEmpty() || !known.get().table().equals(result.table())) {
            // Another governor's job, or another test's: nothing of ours to change.
            Log.debugf("Ignoring %s of job %s on %s: the governor did not admit it", result.getClass().getSimpleName(),
                    result.jobId(), result.table());
            return Optional.empty();
        }
        return QuarkusTransaction.requiringNew().call(() -> {
            jobs.serialize(result.table());
            Job job = jobs.lock(result.jobId()).orElseThrow();
            if (job.isFinished()) {
                return Optional.<Engine>empty();
            }
            Instant now = clock.instant();
            if (result instanceof JobFinished finished) {
                finish(job, finished, now);
                return Optional.of(job.engine());
            }
            if (result instanceof JobStarted started) {
                jobs.started(job.jobId(), started.executorId(), earliest(started.startedAt(), now));
                jobs.renewLease(job.jobId(), leases.expiry(earliest(started.startedAt(), now)));
            } else if (result instanceof JobHeartbeat heartbeat) {
                jobs.heartbeat(job.jobId(), heartbeat.executorId(), earliest(heartbeat.sentAt(), now),
                        heartbeat.operation() == null ? null : heartbeat.operation().id(), heartbeat.chunksDone(),
                        heartbeat.chunksTotal());
                jobs.renewLease(job.jobId(), leases.expiry(earliest(heartbeat.sentAt(), now)));
            } else if (result instanceof JobRefused refused) {
                String note = "the admission at " + refused.admittedAt() + " was refused by executor "
                        + refused.executorId() + " (" + refused.reason() + "): " + refused.message();
                jobs.note(job.jobId(), note);
                metrics.refused(refused.reason());
                Log.warnf("Job %s on %s: %s", job.jobId(), job.table(), note);
            } else if (result instanceof OperationFinished operation) {
                jobs.renewLease(job.jobId(), leases.expiry(earliest(operation.finishedAt(), now)));
                if (operation.committedSnapshotId() != null) {
                    jobs.committed(job.jobId(), operation.committedSnapshotId(), earliest(operation.finishedAt(), now));
                }
            }
            return Optional.<Engine>empty();
        });
    }

    private void finish(Job job, JobFinished finished, Instant now) {
        // Slots are counted under the engine's row lock: take it before freeing one.
        rules.lockEngine(job.engine());
        jobs.release(job.jobId());
        Instant finishedAt = earliest(finished.finishedAt(), now);
        jobs.finish(job.jobId(), finishedAt, finished.outcome().id(), finished.errorCode(), finished.message());
        plans.done(job.planId());
        admissions.dropStalePlans(job.table(), now);
        plans.dueNowForTable(job.table(), now);
        Log.infof("Job %s on %s finished (%s): table and %s slot %d released", job.jobId(), job.table(),
                finished.outcome().id(), job.engine().id(), job.slot());
    }

    /** Makes the plans that wait for an engine's slots or load due now. */
    public void wake(Engine engine) {
        QuarkusTransaction.requiringNew().run(() -> plans.dueNowForEngine(engine, clock.instant()));
    }

    /** Re-admits or releases every job whose lease ran out; returns how many. */
    public int expireLeases() {
        Instant now = clock.instant();
        int handled = 0;
        for (TableLock candidate : QuarkusTransaction.requiringNew().call(() -> jobs.expiredLocks(now, EXPIRY_LIMIT))) {
            Optional<Engine> freed = QuarkusTransaction.requiringNew().call(() -> expire(candidate.table(), candidate.jobId()));
            freed.ifPresent(this::wake);
            handled++;
        }
        return handled;
    }

    private Optional<Engine> expire(TableId table, String jobId) {
        jobs.serialize(table);
        Instant now = clock.instant();
        Optional<TableLock> lock = jobs.lockOf(table).filter(held -> held.jobId().equals(jobId))
                .filter(held -> Leases.isExpired(held, now));
        if (lock.isEmpty()) {
            return Optional.empty();
        }
        Job job = jobs.lock(jobId).orElseThrow();
        Optional<Pause> paused = rules.pauses().stream().filter(pause -> pause.pattern().matches(table)).findFirst();
        if (paused.isPresent()) {
            String note = "lease ended at " + lock.get().leaseExpiresAt() + " while the table is paused by "
                    + paused.get().pausedBy() + " ('" + paused.get().pattern() + "', pause " + paused.get().id()
                    + "): not admitted again";
            return Optional.of(release(job, now, "cancelled", "TABLE_PAUSED", note, "cancelled"));
        }
        Leases.AfterExpiry after = leases.afterExpiry(lock.get(), job.attempt(), now);
        if (after instanceof Leases.Readmit readmit) {
            String note = "re-admitted as attempt " + readmit.attempt() + " after its lease ended at "
                    + lock.get().leaseExpiresAt() + " without a heartbeat (executor " + job.executorId() + ")";
            jobs.readmitted(jobId, readmit.attempt(), instance.id(), now, note);
            jobs.renewLease(jobId, readmit.leaseExpiresAt());
            ReceivedPlan plan = plans.find(job.planId()).orElseThrow();
            MaintenancePlanned payload = EventJson.read(plan.payload().getBytes(StandardCharsets.UTF_8),
                    MaintenancePlanned.class);
            outbox.append(new EventEnvelope<>(EventIds.derived(jobId, "admitted/attempt-" + readmit.attempt()),
                    EventType.JOB_ADMITTED, instance.source(), now, table.toString(), plan.correlationId(),
                    plan.actor(), new JobAdmitted(jobId, job.planId(), table, job.engine(), job.slot(), now,
                    readmit.leaseExpiresAt(), instance.id(), payload)));
            metrics.leaseExpired("readmitted");
            Log.warnf("Job %s on %s: %s", jobId, table, note);
            return Optional.empty();
        }
        return Optional.of(release(job, now, "abandoned", null, ((Leases.GiveUp) after).message(), "abandoned"));
    }

    /** Ends a job whose lease ran out without its executor's result: frees its table and slot. */
    private Engine release(Job job, Instant now, String outcome, String errorCode, String note, String metric) {
        rules.lockEngine(job.engine());
        jobs.release(job.jobId());
        jobs.finish(job.jobId(), now, outcome, errorCode, note);
        plans.done(job.planId());
        plans.dueNowForTable(job.table(), now);
        metrics.leaseExpired(metric);
        Log.errorf("Job %s on %s: %s", job.jobId(), job.table(), note);
        return job.engine();
    }

    /**
     * Revokes every unfinished job that holds a table the new pause matches: its executor does not
     * start it, or stops it before its next step. The caller holds the transaction that inserts the pause.
     *
     * @return the revoked jobs' ids
     */
    public List<String> revokeFor(Pause pause) {
        Instant now = clock.instant();
        List<String> revoked = new ArrayList<>();
        for (TableLock lock : jobs.locks()) {
            if (!pause.pattern().matches(lock.table())) {
                continue;
            }
            jobs.serialize(lock.table());
            Optional<Job> held = jobs.lock(lock.jobId()).filter(job -> !job.isFinished());
            if (held.isEmpty()) {
                continue;
            }
            Job job = held.get();
            String message = "table paused by " + pause.pausedBy() + " ('" + pause.pattern() + "'): " + pause.reason();
            ReceivedPlan plan = plans.find(job.planId()).orElseThrow();
            outbox.append(new EventEnvelope<>(EventIds.derived(job.jobId(), "revoked/" + pause.id()), EventType.JOB_REVOKED,
                    instance.source(), now, job.table().toString(), plan.correlationId(), pause.pausedBy(),
                    new JobRevoked(job.jobId(), job.planId(), job.table(), pause.id(), message, now)));
            jobs.note(job.jobId(), "revoked: " + message + "; its executor does not start it or stops it before its next step");
            Log.warnf("Job %s on %s revoked: %s", job.jobId(), job.table(), message);
            revoked.add(job.jobId());
        }
        return revoked;
    }

    private static Instant earliest(Instant reported, Instant now) {
        // An executor's clock may run ahead: never let it push a lease or a cooldown into the future.
        return reported.isAfter(now) ? now : reported;
    }
}
