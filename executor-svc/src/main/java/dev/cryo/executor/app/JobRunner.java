package dev.cryo.executor.app;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.cloudevents.EventType;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.FileCounts;
import dev.cryo.contracts.event.JobAdmitted;
import dev.cryo.contracts.event.JobFinished;
import dev.cryo.contracts.event.JobHeartbeat;
import dev.cryo.contracts.event.JobOutcome;
import dev.cryo.contracts.event.JobRefused;
import dev.cryo.contracts.event.JobRevoked;
import dev.cryo.contracts.event.JobStarted;
import dev.cryo.contracts.event.OperationFinished;
import dev.cryo.contracts.event.OperationStatus;
import dev.cryo.executor.ExecutorErrorCode;
import dev.cryo.executor.app.PolicyRouting;
import dev.cryo.executor.config.ExecutorConfig;
import dev.cryo.executor.domain.AdmissionCheck;
import dev.cryo.executor.domain.JobOutcomes;
import dev.cryo.executor.domain.JobSteps;
import dev.cryo.executor.domain.StepKey;
import dev.cryo.executor.engine.EngineStepException;
import dev.cryo.executor.engine.MaintenanceEngine;
import dev.cryo.executor.engine.StepRequest;
import dev.cryo.executor.engine.StepResult;
import dev.cryo.executor.persistence.JobAttempts;
import dev.cryo.executor.persistence.JobRevocations;
import dev.cryo.platform.config.ServiceInstance;
import dev.cryo.platform.error.CryoException;
import dev.cryo.platform.error.ErrorType;
import dev.cryo.platform.messaging.EventIds;
import dev.cryo.platform.messaging.EventPublisher;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.logging.Log;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static java.util.Objects.requireNonNull;

/**
 * Runs one admitted job: refuses an admission whose lease has ended, that is older than the
 * executor accepts or stamped in the future (JobRefused: the governor admits the job again),
 * claims it in PostgreSQL, skips the steps an earlier attempt committed
 * (from its own records and from the table's snapshot summaries), runs the rest in the fixed
 * order — each on the job's engine, or routed to the next engine of the policy when the job's
 * engine cannot run it — heartbeats while it works, and publishes JobStarted, OperationFinished
 * per step and JobFinished on the results topic. Result ids derive from the job id, so a
 * republished result is recognised downstream as the same event. A job that another executor
 * takes over, or that is still running when this executor stops, has its engine statement
 * cancelled. A job the governor revoked because its table was paused after admission is not
 * started, or stops before its next step, and ends as cancelled ({@code TABLE_PAUSED}).
 */
public class JobRunner implements AutoCloseable {

    private static final Set<ExecutorErrorCode> TABLE_UNUSABLE = Set.of(ExecutorErrorCode.TABLE_NOT_FOUND,
            ExecutorErrorCode.CATALOG_NOT_FOUND);

    private final Map<Engine, MaintenanceEngine> engines;
    private final PolicyRouting routing;
    private final Set<String> catalogs;
    private final JobAttempts attempts;
    private final JobRevocations revocations;
    private final AdmissionCheck admissionCheck;
    private final EventPublisher publisher;
    private final ServiceInstance instance;
    private final ExecutorConfig config;
    private final Clock clock;
    private final MeterRegistry registry;
    private final Set<String> runningHere = ConcurrentHashMap.newKeySet();
    private final Map<String, Progress> progressByJob = new ConcurrentHashMap<>();
    private final AtomicInteger running = new AtomicInteger();
    private final ScheduledExecutorService heartbeats = Executors.newScheduledThreadPool(1, runnable -> {
        Thread thread = new Thread(runnable, "cryo-job-heartbeat");
        thread.setDaemon(true);
        return thread;
    });

    public JobRunner(Map<Engine, MaintenanceEngine> engines, PolicyRouting routing, Set<String> catalogs,
                     JobAttempts attempts, JobRevocations revocations, EventPublisher publisher, ServiceInstance instance, ExecutorConfig config,
                     Clock clock, MeterRegistry registry) {
        this.engines = Map.copyOf(engines);
        this.routing = requireNonNull(routing, "routing is null");
        this.catalogs = Set.copyOf(catalogs);
        this.attempts = requireNonNull(attempts, "attempts is null");
        this.revocations = requireNonNull(revocations, "revocations is null");
        this.admissionCheck = new AdmissionCheck(config.admissionValidity(), config.clockSkewTolerance());
        this.publisher = requireNonNull(publisher, "publisher is null");
        this.instance = requireNonNull(instance, "instance is null");
        this.config = requireNonNull(config, "config is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.registry = requireNonNull(registry, "registry is null");
        registry.gauge("cryo.executor.jobs.running", running);
    }

    /** Handles one JobAdmitted envelope; returns the JobFinished to publish (already published steps excluded). */
    public List<EventEnvelope<?>> handle(EventEnvelope<CryoEvent> incoming) {
        if (incoming.data() instanceof JobRevoked) {
            return List.of(); // JobRevokedConsumer's group notes it
        }
        if (!(incoming.data() instanceof JobAdmitted job)) {
            Log.warnf("Ignoring %s %s on the admitted-jobs topic", incoming.type().id(), incoming.id());
            return List.of();
        }
        if (config.ignoreUnknownCatalogs() && !catalogs.contains(job.table().catalog())) {
            Log.infof("Skipping job %s: catalog %s is not configured here (cryo.executor.ignore-unknown-catalogs=true)",
                    job.jobId(), job.table().catalog());
            return List.of();
        }
        if (!runningHere.add(job.jobId())) {
            Log.infof("Job %s is already running in this executor; its run publishes the results", job.jobId());
            return List.of();
        }
        try {
            Optional<AdmissionCheck.Refusal> refusal = admissionCheck.check(job, clock.instant());
            if (refusal.isPresent()) {
                return refuse(job, refusal.get(), incoming);
            }
            JobAttempts.Claim claim = claim(job);
            if (claim instanceof JobAttempts.Finished finished) {
                Log.infof("Job %s finished before (%s); publishing its result again", job.jobId(), finished.event().outcome());
                return List.of(envelope(finished.eventId(), finished.event(), incoming));
            }
            if (claim instanceof JobAttempts.Held held) {
                Log.infof("Job %s is still run by %s (heartbeat %s ago); leaving it to that executor, the governor"
                        + " re-admits it if its lease expires", job.jobId(), held.owner(), held.heartbeatAge());
                return List.of();
            }
            return execute(job, ((JobAttempts.Claimed) claim).attempt(), incoming);
        } finally {
            runningHere.remove(job.jobId());
        }
    }

    /**
     * A stale admission is not started. Its job is not ended here (a later admission of the same
     * job may be running): the result says why. A job that finished before republishes its result,
     * and one that another executor runs now (its record came again in a rebalance) is left to it.
     */
    private List<EventEnvelope<?>> refuse(JobAdmitted job, AdmissionCheck.Refusal refusal, EventEnvelope<CryoEvent> incoming) {
        Optional<JobAttempts.Finished> finished = attempts.finished(job.jobId());
        if (finished.isPresent()) {
            Log.infof("Job %s finished before (%s); publishing its result again", job.jobId(), finished.get().event().outcome());
            return List.of(envelope(finished.get().eventId(), finished.get().event(), incoming));
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
        return List.of(envelope(EventIds.derived(job.jobId(), "refused/" + job.admittedAt()), refused, incoming));
    }

    private JobAttempts.Claim claim(JobAdmitted job) {
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

    private List<EventEnvelope<?>> execute(JobAdmitted job, int attempt, EventEnvelope<CryoEvent> incoming) {
        Instant started = clock.instant();
        List<JobSteps.PlannedStep> steps = JobSteps.of(job.plan());
        int chunksTotal = JobSteps.chunksTotal(job.plan());
        MaintenanceEngine engine = engines.get(job.engine());
        running.incrementAndGet();
        Progress progress = new Progress(chunksTotal);
        progressByJob.put(job.jobId(), progress);
        ScheduledFuture<?> heartbeat = heartbeats.scheduleAtFixedRate(() -> heartbeat(job, attempt, progress, incoming),
                config.heartbeatInterval().toMillis(), config.heartbeatInterval().toMillis(), TimeUnit.MILLISECONDS);
        try {
            Optional<String> revoked = revocations.of(job.jobId());
            if (revoked.isPresent()) {
                Log.warnf("Job %s on %s: not started, revoked: %s", job.jobId(), job.table(), revoked.get());
                return cancel(job, incoming, started, List.of(), "not started: " + revoked.get());
            }
            if (engine == null) {
                publish(job, attempt, incoming, started, 0);
                return finish(job, incoming, started, List.of(), ExecutorErrorCode.ENGINE_UNAVAILABLE.name(),
                        "Cannot run job " + job.jobId() + " on " + job.engine().id() + ": this executor runs "
                                + engines.keySet().stream().map(Engine::id).sorted().toList() + "; configure "
                                + (job.engine() == Engine.TRINO ? "cryo.executor.trino.jdbc-url" : "cryo.executor.spark.remote")
                                + " or set the table's engine policy to an engine this executor runs");
            }
            Map<StepKey, JobAttempts.StoredStep> stored = attempts.steps(job.jobId());
            Map<StepKey, Long> committed;
            try {
                committed = committedSteps(job);
            } catch (CryoException e) {
                if (e.code() instanceof ExecutorErrorCode code && TABLE_UNUSABLE.contains(code)) {
                    publish(job, attempt, incoming, started, 0);
                    return finish(job, incoming, started, List.of(OperationStatus.FAILED), code.name(), e.getMessage());
                }
                throw e;
            }
            int already = (int) steps.stream().filter(step -> done(stored.get(step.key())) || committed.containsKey(step.key()))
                    .count();
            publish(job, attempt, incoming, started, already);

            List<OperationStatus> statuses = new ArrayList<>();
            String firstErrorCode = null;
            String firstErrorMessage = null;
            boolean statistics = steps.stream().anyMatch(step -> step.key().operation() == Operation.COMPUTE_STATISTICS);
            for (JobSteps.PlannedStep step : steps) {
                if (progress.lost.get()) {
                    Log.warnf("Job %s: another executor took it over; stopping before %s", job.jobId(), step.key());
                    return List.of();
                }
                revoked = revocations.of(job.jobId());
                if (revoked.isPresent()) {
                    Log.warnf("Job %s on %s: stopping before %s, revoked: %s", job.jobId(), job.table(), step.key(),
                            revoked.get());
                    progress.operation = null;
                    return cancel(job, incoming, started, statuses, "stopped before " + step.key() + ": " + revoked.get());
                }
                progress.operation = step.key().operation();
                JobAttempts.StoredStep previous = stored.get(step.key());
                OperationFinished result;
                String eventId;
                if (done(previous)) {
                    result = previous.event();
                    eventId = previous.eventId();
                } else if (committed.containsKey(step.key())) {
                    Long snapshot = committed.get(step.key());
                    result = skipped(job, step.key(), engine.engine(), snapshot);
                    eventId = EventIds.derived(job.jobId(), step.key() + "/skipped");
                    attempts.recordStep(job.jobId(), step.key(), attempt, eventId, result);
                } else {
                    result = run(job, step, progress, statistics);
                    eventId = EventIds.derived(job.jobId(), step.key() + "/attempt-" + attempt);
                    attempts.recordStep(job.jobId(), step.key(), attempt, eventId, result);
                }
                publisher.publish(envelope(eventId, result, incoming));
                statuses.add(result.status());
                if (step.key().chunkIndex() != null && result.status() != OperationStatus.FAILED) {
                    progress.chunksDone.incrementAndGet();
                }
                if (result.status() == OperationStatus.FAILED && firstErrorCode == null) {
                    firstErrorCode = result.errorCode();
                    firstErrorMessage = step.key() + ": " + result.message();
                }
                if (result.status() == OperationStatus.FAILED && isTableUnusable(result.errorCode())) {
                    Log.warnf("Job %s: %s; the remaining steps cannot run either", job.jobId(), result.message());
                    break;
                }
            }
            progress.operation = null;
            return finish(job, incoming, started, statuses, firstErrorCode, firstErrorMessage);
        } finally {
            heartbeat.cancel(false);
            progressByJob.remove(job.jobId(), progress);
            running.decrementAndGet();
        }
    }

    /**
     * The steps the table history shows as committed, asked of every engine the job's steps may
     * have run on: a step routed to native carries native's tags, a Trino step Trino's summary.
     */
    private Map<StepKey, Long> committedSteps(JobAdmitted job) {
        Map<StepKey, Long> committed = new LinkedHashMap<>();
        for (Engine engine : routing.policy(job.engine())) {
            MaintenanceEngine maintenance = engines.get(engine);
            if (maintenance != null) {
                maintenance.committedSteps(job.table(), job.jobId()).forEach(committed::putIfAbsent);
            }
        }
        return committed;
    }

    private OperationFinished run(JobAdmitted job, JobSteps.PlannedStep step, Progress progress, boolean statistics) {
        Operation operation = step.key().operation();
        Timer.Sample sample = Timer.start(registry);
        Instant started = clock.instant();
        Engine engine = job.engine();
        String routedReason = null;
        OperationFinished result;
        try {
            PolicyRouting.RoutedStep routed = routing.route(job.engine(), new StepRequest(job.table(), job.jobId(),
                    step.key(), step.partitions(), step.parameters(),
                    statistics && step.key().operation().ordinal() < Operation.COMPUTE_STATISTICS.ordinal()));
            engine = routed.engine();
            routedReason = routed.routedReason();
            MaintenanceEngine maintenance = engines.get(engine);
            if (maintenance == null) {
                throw new CryoException(ExecutorErrorCode.NOT_ROUTABLE, "Cannot run " + step.key() + " on "
                        + engine.id() + ": this executor does not run it; configure it or remove it from"
                        + " cryo.executor.fallback-engines");
            }
            if (routedReason != null) {
                Log.infof("Job %s: %s %s", job.jobId(), step.key(), routedReason);
            }
            progress.engine = maintenance;
            StepResult done;
            try {
                done = maintenance.run(routed.request());
            } finally {
                progress.engine = null;
            }
            result = new OperationFinished(job.jobId(), job.planId(), job.table(), operation, step.key().chunkIndex(),
                    engine, routedReason, OperationStatus.SUCCEEDED, done.before(), done.after(),
                    done.committedSnapshotId(), done.changed(), Duration.between(started, clock.instant()), done.retries(),
                    done.queryId(),
                    null, done.message(), clock.instant());
            registry.counter("cryo.executor.commit.retries", "operation", operation.id()).increment(done.retries());
        } catch (CryoException e) {
            if (e.code().type() == ErrorType.INTERNAL) {
                Log.errorf(e, "Job %s: %s failed on %s", job.jobId(), step.key(), engine.id());
            } else {
                Log.warnf("Job %s: %s failed on %s: %s", job.jobId(), step.key(), engine.id(), e.getMessage());
            }
            result = failed(job, step.key(), engine, routedReason, started, e.code().name(), e.getMessage(),
                    e instanceof EngineStepException onEngine ? onEngine.queryId() : null);
        } catch (RuntimeException | LinkageError e) {
            // A LinkageError (a class an engine's client needs is missing) fails the step like any
            // other defect: left to the consumer, it would leave the job without a result until its lease ran out.
            Log.errorf(e, "Job %s: %s failed unexpectedly on %s", job.jobId(), step.key(), engine.id());
            result = failed(job, step.key(), engine, routedReason, started, ExecutorErrorCode.ENGINE_FAILURE.name(),
                    "Cannot run " + step.key() + ": " + e, null);
        }
        sample.stop(registry.timer("cryo.executor.step.duration", "operation", operation.id(),
                "status", result.status().id(), "engine", engine.id()));
        registry.counter("cryo.executor.steps", "operation", operation.id(), "status", result.status().id(),
                "engine", engine.id()).increment();
        if (routedReason != null) {
            registry.counter("cryo.executor.steps.routed", "operation", operation.id(), "from", job.engine().id(),
                    "to", engine.id()).increment();
        }
        return result;
    }

    private OperationFinished failed(JobAdmitted job, StepKey step, Engine engine, String routedReason, Instant started,
                                     String code, String message, String queryId) {
        return new OperationFinished(job.jobId(), job.planId(), job.table(), step.operation(), step.chunkIndex(), engine,
                routedReason, OperationStatus.FAILED, FileCounts.ZERO, FileCounts.ZERO, null, null,
                Duration.between(started, clock.instant()), 0, queryId, code, message, clock.instant());
    }

    private OperationFinished skipped(JobAdmitted job, StepKey step, Engine engine, Long snapshot) {
        return new OperationFinished(job.jobId(), job.planId(), job.table(), step.operation(), step.chunkIndex(), engine,
                null, OperationStatus.SKIPPED, FileCounts.ZERO, FileCounts.ZERO, snapshot, snapshot != null ? Boolean.TRUE : null,
                Duration.ZERO, 0, null, null,
                "already committed by an earlier attempt" + (snapshot == null ? "" : " in snapshot " + snapshot),
                clock.instant());
    }

    private List<EventEnvelope<?>> finish(JobAdmitted job, EventEnvelope<CryoEvent> incoming, Instant started,
                                          List<OperationStatus> statuses, String errorCode, String message) {
        JobOutcome outcome = errorCode != null && statuses.stream().noneMatch(status -> status != OperationStatus.FAILED)
                ? JobOutcome.FAILED : JobOutcomes.outcome(statuses);
        return finish(job, incoming, started, statuses, outcome, errorCode, message);
    }

    /** The job ends as cancelled: its table was paused after admission. Steps it committed stay committed. */
    private List<EventEnvelope<?>> cancel(JobAdmitted job, EventEnvelope<CryoEvent> incoming, Instant started,
                                          List<OperationStatus> statuses, String message) {
        return finish(job, incoming, started, statuses, JobOutcome.CANCELLED, ExecutorErrorCode.TABLE_PAUSED.name(), message);
    }

    private List<EventEnvelope<?>> finish(JobAdmitted job, EventEnvelope<CryoEvent> incoming, Instant started,
                                          List<OperationStatus> statuses, JobOutcome outcome, String errorCode,
                                          String message) {
        int failed = (int) statuses.stream().filter(status -> status == OperationStatus.FAILED).count();
        JobFinished finished = new JobFinished(job.jobId(), job.planId(), job.table(), job.engine(), outcome,
                statuses.size() - failed, failed, Duration.between(started, clock.instant()),
                outcome == JobOutcome.SUCCEEDED ? null : errorCode, outcome == JobOutcome.SUCCEEDED ? null : message,
                clock.instant());
        String eventId = EventIds.derived(job.jobId(), "finished");
        if (!attempts.finish(job.jobId(), instance.id(), eventId, finished)) {
            Log.warnf("Job %s: another executor took it over before it finished here; it publishes the result",
                    job.jobId());
            return List.of();
        }
        registry.counter("cryo.executor.jobs", "outcome", outcome.id()).increment();
        Log.infof("Job %s on %s: %s (%d steps, %d failed) in %s", job.jobId(), job.table(), outcome.id(),
                statuses.size(), failed, finished.duration());
        return List.of(envelope(eventId, finished, incoming));
    }

    private void publish(JobAdmitted job, int attempt, EventEnvelope<CryoEvent> incoming, Instant started, int already) {
        JobStarted event = new JobStarted(job.jobId(), job.planId(), job.table(), job.engine(), instance.id(), attempt,
                started, already);
        publisher.publish(envelope(EventIds.derived(job.jobId(), "started/attempt-" + attempt), event, incoming));
    }

    private void heartbeat(JobAdmitted job, int attempt, Progress progress, EventEnvelope<CryoEvent> incoming) {
        try {
            if (!attempts.heartbeat(job.jobId(), instance.id())) {
                if (!progress.lost.getAndSet(true)) {
                    Log.warnf("Job %s: another executor took it over; cancelling its running statement", job.jobId());
                    cancelRunningStatement(job.jobId(), progress);
                }
                return;
            }
            JobHeartbeat beat = new JobHeartbeat(job.jobId(), job.planId(), job.table(), instance.id(), clock.instant(),
                    progress.operation, progress.chunksDone.get(), progress.chunksTotal);
            publisher.publish(envelope(EventIds.derived(job.jobId(), "heartbeat/" + attempt + "/"
                    + progress.beats.incrementAndGet()), beat, incoming));
        } catch (RuntimeException e) {
            // A missed heartbeat is harmless until the lease timeout; the next one may get through.
            Log.warnf("Job %s: heartbeat failed: %s", job.jobId(), e.getMessage());
        }
    }

    private <T extends CryoEvent> EventEnvelope<T> envelope(String id, T data, EventEnvelope<CryoEvent> incoming) {
        return new EventEnvelope<>(id, EventType.of(data), instance.source(), clock.instant(), data.table().toString(),
                incoming.correlationId(), incoming.actor(), data);
    }

    private static boolean done(JobAttempts.StoredStep step) {
        return step != null && step.event().status() != OperationStatus.FAILED;
    }

    private static boolean isTableUnusable(String errorCode) {
        return TABLE_UNUSABLE.stream().anyMatch(code -> code.name().equals(errorCode));
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

    private static void cancelRunningStatement(String jobId, Progress progress) {
        MaintenanceEngine engine = progress.engine;
        if (engine != null) {
            try {
                engine.cancel(jobId);
            } catch (RuntimeException e) {
                Log.warnf(e, "Job %s: cannot cancel its statement on %s", jobId, engine.engine().id());
            }
        }
    }

    /** Stops heartbeats and cancels the engine statements of the jobs still running here: the executor stops. */
    @Override
    public void close() {
        heartbeats.shutdownNow();
        progressByJob.forEach((jobId, progress) -> {
            Log.infof("Job %s: the executor stops; cancelling its running statement", jobId);
            cancelRunningStatement(jobId, progress);
        });
    }

    /** What the heartbeat reports, updated by the job's thread. */
    private static final class Progress {
        final int chunksTotal;
        final AtomicInteger chunksDone = new AtomicInteger();
        final AtomicInteger beats = new AtomicInteger();
        final AtomicBoolean lost = new AtomicBoolean();
        volatile Operation operation;
        /** The engine running the job's current step, if any: what a cancellation goes to. */
        volatile MaintenanceEngine engine;

        Progress(int chunksTotal) {
            this.chunksTotal = chunksTotal;
        }
    }
}
