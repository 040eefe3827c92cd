package dev.cryo.executor.app;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.JobAdmitted;
import dev.cryo.contracts.event.JobFinished;
import dev.cryo.contracts.event.JobOutcome;
import dev.cryo.contracts.event.JobRefused;
import dev.cryo.contracts.event.JobRevoked;
import dev.cryo.contracts.event.JobStarted;
import dev.cryo.contracts.event.OperationFinished;
import dev.cryo.contracts.event.OperationStatus;
import dev.cryo.executor.ExecutorErrorCode;
import dev.cryo.executor.config.ExecutorConfig;
import dev.cryo.executor.domain.AdmissionCheck;
import dev.cryo.executor.domain.JobOutcomes;
import dev.cryo.executor.domain.JobSteps;
import dev.cryo.executor.engine.StepKey;
import dev.cryo.executor.engine.MaintenanceEngine;
import dev.cryo.executor.persistence.JobAttempts;
import dev.cryo.executor.persistence.JobRevocations;
import dev.cryo.platform.config.ServiceInstance;
import dev.cryo.platform.error.CryoException;
import dev.cryo.platform.messaging.EventIds;
import dev.cryo.platform.messaging.EventPublisher;
import io.micrometer.core.instrument.MeterRegistry;
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
    private final JobClaims claims;
    private final StepRunner steps;
    private final JobEnvelopes envelopes;
    private final Heartbeats heartbeats;
    private final Set<String> runningHere = ConcurrentHashMap.newKeySet();
    private final AtomicInteger running = new AtomicInteger();

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
        this.envelopes = new JobEnvelopes(instance, clock);
        this.claims = new JobClaims(attempts, instance, config, registry, envelopes, clock);
        this.steps = new StepRunner(this.engines, this.routing, registry, clock);
        this.heartbeats = new Heartbeats(attempts, instance, publisher, envelopes, clock, config.heartbeatInterval());
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
                return claims.refuse(job, refusal.get(), incoming);
            }
            JobAttempts.Claim claim = claims.claim(job);
            if (claim instanceof JobAttempts.Finished finished) {
                Log.infof("Job %s finished before (%s); publishing its result again", job.jobId(), finished.event().outcome());
                return List.of(envelopes.of(finished.eventId(), finished.event(), incoming));
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

    private List<EventEnvelope<?>> execute(JobAdmitted job, int attempt, EventEnvelope<CryoEvent> incoming) {
        Instant started = clock.instant();
        MaintenanceEngine engine = engines.get(job.engine());
        running.incrementAndGet();
        JobProgress progress = new JobProgress(JobSteps.chunksTotal(job.plan()));
        try (Heartbeats.Beat beat = heartbeats.start(job, attempt, progress, incoming)) {
            Optional<String> revoked = revocations.of(job.jobId());
            if (revoked.isPresent()) {
                Log.warnf("Job %s on %s: not started, revoked: %s", job.jobId(), job.table(), revoked.get());
                return cancel(job, incoming, started, List.of(), "not started: " + revoked.get());
            }
            if (engine == null) {
                publishStarted(job, attempt, incoming, started, 0);
                return finish(job, incoming, started, List.of(), ExecutorErrorCode.ENGINE_UNAVAILABLE.name(),
                        "Cannot run job " + job.jobId() + " on " + job.engine().id() + ": this executor runs "
                                + engines.keySet().stream().map(Engine::id).sorted().toList() + "; configure "
                                + (job.engine() == Engine.TRINO ? "cryo.executor.trino.jdbc-url" : "cryo.executor.spark.remote")
                                + " or set the table's engine policy to an engine this executor runs");
            }
            Map<StepKey, Long> committed;
            try {
                committed = committedSteps(job);
            } catch (CryoException e) {
                if (e.code() instanceof ExecutorErrorCode code && TABLE_UNUSABLE.contains(code)) {
                    publishStarted(job, attempt, incoming, started, 0);
                    return finish(job, incoming, started, List.of(OperationStatus.FAILED), code.name(), e.getMessage());
                }
                throw e;
            }
            return runSteps(new Attempt(job, attempt, incoming, started, engine, progress), committed);
        } finally {
            running.decrementAndGet();
        }
    }

    /** One attempt at a job: what its steps and results refer to. */
    private record Attempt(JobAdmitted job, int number, EventEnvelope<CryoEvent> incoming, Instant started,
                           MaintenanceEngine engine, JobProgress progress) {
    }

    /**
     * Runs the job's steps in the fixed order, each once: a step an earlier attempt finished is
     * republished as it was, one the table's history shows committed is skipped, the rest run. Stops
     * when the job is revoked or taken over, or a step finds the table unusable.
     */
    private List<EventEnvelope<?>> runSteps(Attempt attempt, Map<StepKey, Long> committed) {
        JobAdmitted job = attempt.job();
        List<JobSteps.PlannedStep> planned = JobSteps.of(job.plan());
        Map<StepKey, JobAttempts.StoredStep> stored = attempts.steps(job.jobId());
        int already = (int) planned.stream()
                .filter(step -> done(stored.get(step.key())) || committed.containsKey(step.key())).count();
        publishStarted(job, attempt.number(), attempt.incoming(), attempt.started(), already);
        List<OperationStatus> statuses = new ArrayList<>();
        OperationFinished firstFailure = null;
        String firstFailedStep = null;
        boolean statistics = planned.stream().anyMatch(step -> step.key().operation() == Operation.COMPUTE_STATISTICS);
        JobProgress progress = attempt.progress();
        for (JobSteps.PlannedStep step : planned) {
            if (progress.lost.get()) {
                Log.warnf("Job %s: another executor took it over; stopping before %s", job.jobId(), step.key());
                return List.of();
            }
            Optional<String> revoked = revocations.of(job.jobId());
            if (revoked.isPresent()) {
                Log.warnf("Job %s on %s: stopping before %s, revoked: %s", job.jobId(), job.table(), step.key(),
                        revoked.get());
                progress.operation = null;
                return cancel(job, attempt.incoming(), attempt.started(), statuses,
                        "stopped before " + step.key() + ": " + revoked.get());
            }
            progress.operation = step.key().operation();
            OperationFinished result = step(attempt, step, stored.get(step.key()), committed, statistics);
            statuses.add(result.status());
            if (step.key().chunkIndex() != null && result.status() != OperationStatus.FAILED) {
                progress.chunksDone.incrementAndGet();
            }
            if (result.status() == OperationStatus.FAILED && firstFailure == null) {
                firstFailure = result;
                firstFailedStep = step.key().toString();
            }
            if (result.status() == OperationStatus.FAILED && isTableUnusable(result.errorCode())) {
                Log.warnf("Job %s: %s; the remaining steps cannot run either", job.jobId(), result.message());
                break;
            }
        }
        progress.operation = null;
        return finish(job, attempt.incoming(), attempt.started(), statuses,
                firstFailure == null ? null : firstFailure.errorCode(),
                firstFailure == null ? null : firstFailedStep + ": " + firstFailure.message());
    }

    /** One step's result, recorded and published: as stored by an earlier attempt, skipped, or run now. */
    private OperationFinished step(Attempt attempt, JobSteps.PlannedStep step, JobAttempts.StoredStep previous,
                                   Map<StepKey, Long> committed, boolean statistics) {
        JobAdmitted job = attempt.job();
        OperationFinished result;
        String eventId;
        if (done(previous)) {
            result = previous.event();
            eventId = previous.eventId();
        } else if (committed.containsKey(step.key())) {
            result = steps.skipped(job, step.key(), attempt.engine().engine(), committed.get(step.key()));
            eventId = EventIds.derived(job.jobId(), step.key() + "/skipped");
            attempts.recordStep(job.jobId(), step.key(), attempt.number(), eventId, result);
        } else {
            result = steps.run(job, step, attempt.progress(), statistics);
            eventId = EventIds.derived(job.jobId(), step.key() + "/attempt-" + attempt.number());
            attempts.recordStep(job.jobId(), step.key(), attempt.number(), eventId, result);
        }
        publisher.publish(envelopes.of(eventId, result, attempt.incoming()));
        return result;
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
        return List.of(envelopes.of(eventId, finished, incoming));
    }

    private void publishStarted(JobAdmitted job, int attempt, EventEnvelope<CryoEvent> incoming, Instant started,
                                int already) {
        JobStarted event = new JobStarted(job.jobId(), job.planId(), job.table(), job.engine(), instance.id(), attempt,
                started, already);
        publisher.publish(envelopes.of(EventIds.derived(job.jobId(), "started/attempt-" + attempt), event, incoming));
    }

    private static boolean done(JobAttempts.StoredStep step) {
        return step != null && step.event().status() != OperationStatus.FAILED;
    }

    private static boolean isTableUnusable(String errorCode) {
        return TABLE_UNUSABLE.stream().anyMatch(code -> code.name().equals(errorCode));
    }

    /** Stops heartbeats and cancels the engine statements of the jobs still running here: the executor stops. */
    @Override
    public void close() {
        heartbeats.close();
    }
}
