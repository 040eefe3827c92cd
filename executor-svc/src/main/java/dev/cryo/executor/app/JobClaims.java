package dev.cryo.executor.app;

import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.JobAdmitted;
import dev.cryo.contracts.event.JobRefused;
import dev.cryo.executor.ExecutorErrorCode;
import dev.cryo.executor.config.ExecutorConfig;
import dev.cryo.executor.domain.AdmissionCheck;
import dev.cryo.executor.persistence.JobAttempts;
import dev.cryo.platform.config.ServiceInstance;
import dev.cryo.platform.error.CryoException;
import dev.cryo.platform.messaging.EventIds;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.logging.Log;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Who runs an admitted job: the claim of its attempt in PostgreSQL, and the refusal of a stale admission. */
final class JobClaims {

    private final JobAttempts attempts;
    private final ServiceInstance instance;
    private final ExecutorConfig config;
    private final MeterRegistry registry;
    private final JobEnvelopes envelopes;
    private final Clock clock;

    JobClaims(JobAttempts attempts, ServiceInstance instance, ExecutorConfig config, MeterRegistry registry,
              JobEnvelopes envelopes, Clock clock) {
        this.attempts = attempts;
        this.instance = instance;
        this.config = config;
        this.registry = registry;
        this.envelopes = envelopes;
        this.clock = clock;
    }

    /**
     * A stale admission is not started. Its job is not ended here (a later admission of the same
     * job may be running): the result says why. A job that finished before republishes its result,
     * and one that another executor runs now (its record came again in a rebalance) is left to it.
     */
    List<EventEnvelope<?>> refuse(JobAdmitted job, AdmissionCheck.Refusal refusal, EventEnvelope<CryoEvent> incoming) {
        Optional<JobAttempts.Finished> finished = attempts.finished(job.jobId());
        if (finished.isPresent()) {
            Log.infof("Job %s finished before (%s); publishing its result again", job.jobId(), finished.get().event().outcome());
            return List.of(envelopes.of(finished.get().eventId(), finished.get().event(), incoming));
        }
        Optional<JobAttempts.Held> held = attempts.heldElsewhere(job.jobId(), instance.id(), config.leaseTimeout());
        if (held.isPresent()) {
            // Not stale: the record of a job that runs came again (a rebalance). Its owner heartbeats and finishes it.
            Log.infof("Job %s is run by %s (heartbeat %s ago) and its admission record came again; leaving it to that"
                    + " executor", job.jobId(), held.get().owner(), held.get().heartbeatAge());
            return List.of();
        }
        registry.counter("cryo.executor.admissions.refused", "reason", refusal.reason()).increment();
        Log.warnf("Refusing job %s on %s: %s", job.jobId(), job.table(), refusal.message());
        JobRefused refused = new JobRefused(job.jobId(), job.planId(), job.table(), instance.id(), job.admittedAt(),
                job.leaseExpiresAt(), refusal.reason(), refusal.message(), clock.instant());
        return List.of(envelopes.of(EventIds.derived(job.jobId(), "refused/" + job.admittedAt()), refused, incoming));
    }

    /** Claims the job, waiting up to {@code held-job-wait} while another executor's lease on it is alive. */
    JobAttempts.Claim claim(JobAdmitted job) {
        Instant giveUp = clock.instant().plus(config.heldJobWait());
        Duration poll = min(Duration.ofSeconds(1), config.heartbeatInterval());
        while (true) {
            JobAttempts.Claim claim = attempts.claim(job.jobId(), job.planId(), job.table().toString(), instance.id(),
                    config.leaseTimeout());
            if (!(claim instanceof JobAttempts.Held held) || clock.instant().isAfter(giveUp)) {
                return claim;
            }
            Log.debugf("Job %s is held by %s (heartbeat %s ago); waiting", job.jobId(), held.owner(), held.heartbeatAge());
            sleep(poll);
        }
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CryoException(ExecutorErrorCode.JOB_HELD_ELSEWHERE, "Cannot wait for the job's owner: interrupted", e);
        }
    }
}
