package dev.cryo.executor.app;

import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.JobAdmitted;
import dev.cryo.contracts.event.JobHeartbeat;
import dev.cryo.executor.persistence.JobAttempts;
import dev.cryo.platform.config.ServiceInstance;
import dev.cryo.platform.messaging.EventIds;
import dev.cryo.platform.messaging.EventPublisher;
import io.quarkus.logging.Log;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Beats for the jobs running here: each beat renews the job's lease in PostgreSQL and publishes a
 * JobHeartbeat with its progress. A job whose lease another executor took has its running
 * statement cancelled; when the executor stops, every running job's statement is.
 */
final class Heartbeats implements AutoCloseable {

    private final JobAttempts attempts;
    private final ServiceInstance instance;
    private final EventPublisher publisher;
    private final JobEnvelopes envelopes;
    private final Clock clock;
    private final Duration interval;
    private final Map<String, JobProgress> progressByJob = new ConcurrentHashMap<>();
    private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(1, runnable -> {
        Thread thread = new Thread(runnable, "cryo-job-heartbeat");
        thread.setDaemon(true);
        return thread;
    });

    Heartbeats(JobAttempts attempts, ServiceInstance instance, EventPublisher publisher, JobEnvelopes envelopes,
               Clock clock, Duration interval) {
        this.attempts = attempts;
        this.instance = instance;
        this.publisher = publisher;
        this.envelopes = envelopes;
        this.clock = clock;
        this.interval = interval;
    }

    /** Beats for the job until the returned beat is cancelled (see {@link Beat#close()}). */
    Beat start(JobAdmitted job, int attempt, JobProgress progress, EventEnvelope<CryoEvent> incoming) {
        progressByJob.put(job.jobId(), progress);
        ScheduledFuture<?> future = scheduler.scheduleAtFixedRate(() -> beat(job, attempt, progress, incoming),
                interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
        return () -> {
            future.cancel(false);
            progressByJob.remove(job.jobId(), progress);
        };
    }

    /** A job's beating, stopped when the job ends. */
    interface Beat extends AutoCloseable {
        @Override
        void close();
    }

    private void beat(JobAdmitted job, int attempt, JobProgress progress, EventEnvelope<CryoEvent> incoming) {
        try {
            if (!attempts.heartbeat(job.jobId(), instance.id())) {
                if (!progress.lost.getAndSet(true)) {
                    Log.warnf("Job %s: another executor took it over; cancelling its running statement", job.jobId());
                    progress.cancelRunningStatement(job.jobId());
                }
                return;
            }
            JobHeartbeat beat = new JobHeartbeat(job.jobId(), job.planId(), job.table(), instance.id(), clock.instant(),
                    progress.operation, progress.chunksDone.get(), progress.chunksTotal);
            publisher.publish(envelopes.of(EventIds.derived(job.jobId(), "heartbeat/" + attempt + "/"
                    + progress.beats.incrementAndGet()), beat, incoming));
        } catch (RuntimeException e) {
            // A missed heartbeat is harmless until the lease timeout; the next one may get through.
            Log.warnf("Job %s: heartbeat failed: %s", job.jobId(), e.getMessage());
        }
    }

    /** Stops beating and cancels the engine statements of the jobs still running here: the executor stops. */
    @Override
    public void close() {
        scheduler.shutdownNow();
        progressByJob.forEach((jobId, progress) -> {
            Log.infof("Job %s: the executor stops; cancelling its running statement", jobId);
            progress.cancelRunningStatement(jobId);
        });
    }
}
