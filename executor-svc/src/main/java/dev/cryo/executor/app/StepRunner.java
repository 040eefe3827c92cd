package dev.cryo.executor.app;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.event.FileCounts;
import dev.cryo.contracts.event.JobAdmitted;
import dev.cryo.contracts.event.OperationFinished;
import dev.cryo.contracts.event.OperationStatus;
import dev.cryo.executor.ExecutorErrorCode;
import dev.cryo.executor.domain.JobSteps;
import dev.cryo.executor.engine.StepKey;
import dev.cryo.executor.engine.EngineStepException;
import dev.cryo.executor.engine.MaintenanceEngine;
import dev.cryo.executor.engine.StepRequest;
import dev.cryo.executor.engine.StepResult;
import dev.cryo.platform.error.CryoException;
import dev.cryo.platform.error.ErrorType;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.logging.Log;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * Runs one step of a job on the engine the policy routes it to and turns what happened into its
 * OperationFinished: succeeded with the engine's counts, or failed with the error code and message
 * (an unexpected exception or a missing class fails the step too, so the job still gets a result).
 * Counts and times every step in the service's metrics.
 */
final class StepRunner {

    private final Map<Engine, MaintenanceEngine> engines;
    private final PolicyRouting routing;
    private final MeterRegistry registry;
    private final Clock clock;

    StepRunner(Map<Engine, MaintenanceEngine> engines, PolicyRouting routing, MeterRegistry registry, Clock clock) {
        this.engines = engines;
        this.routing = routing;
        this.registry = registry;
        this.clock = clock;
    }

    /**
     * Runs the step; {@code statistics} says whether the job also computes statistics, which an
     * earlier step then need not refresh.
     */
    OperationFinished run(JobAdmitted job, JobSteps.PlannedStep step, JobProgress progress, boolean statistics) {
        Operation operation = step.key().operation();
        Timer.Sample sample = Timer.start(registry);
        Instant started = clock.instant();
        Engine engine = job.engine();
        String routedReason = null;
        OperationFinished result;
        try {
            PolicyRouting.RoutedStep routed = routing.route(job.engine(), new StepRequest(job.table(), job.jobId(),
                    step.key(), step.partitions(), step.parameters(),
                    statistics && operation.ordinal() < Operation.COMPUTE_STATISTICS.ordinal()));
            engine = routed.engine();
            routedReason = routed.routedReason();
            result = succeeded(job, step.key(), engine, routed, started, progress);
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
        count(job, operation, engine, routedReason, result, sample);
        return result;
    }

    private OperationFinished succeeded(JobAdmitted job, StepKey step, Engine engine, PolicyRouting.RoutedStep routed,
                                        Instant started, JobProgress progress) {
        MaintenanceEngine maintenance = engines.get(engine);
        if (maintenance == null) {
            throw new CryoException(ExecutorErrorCode.NOT_ROUTABLE, "Cannot run " + step + " on " + engine.id()
                    + ": this executor does not run it; configure it or remove it from cryo.executor.fallback-engines");
        }
        if (routed.routedReason() != null) {
            Log.infof("Job %s: %s %s", job.jobId(), step, routed.routedReason());
        }
        progress.engine = maintenance;
        StepResult done;
        try {
            done = maintenance.run(routed.request());
        } finally {
            progress.engine = null;
        }
        registry.counter("cryo.executor.commit.retries", "operation", step.operation().id()).increment(done.retries());
        return new OperationFinished(job.jobId(), job.planId(), job.table(), step.operation(), step.chunkIndex(), engine,
                routed.routedReason(), OperationStatus.SUCCEEDED, done.before(), done.after(), done.committedSnapshotId(),
                done.changed(), Duration.between(started, clock.instant()), done.retries(), done.queryId(), null,
                done.message(), clock.instant());
    }

    OperationFinished failed(JobAdmitted job, StepKey step, Engine engine, String routedReason, Instant started,
                             String code, String message, String queryId) {
        return new OperationFinished(job.jobId(), job.planId(), job.table(), step.operation(), step.chunkIndex(), engine,
                routedReason, OperationStatus.FAILED, FileCounts.ZERO, FileCounts.ZERO, null, null,
                Duration.between(started, clock.instant()), 0, queryId, code, message, clock.instant());
    }

    /** A step an earlier attempt committed (the table's history shows it), not run again. */
    OperationFinished skipped(JobAdmitted job, StepKey step, Engine engine, Long snapshot) {
        return new OperationFinished(job.jobId(), job.planId(), job.table(), step.operation(), step.chunkIndex(), engine,
                null, OperationStatus.SKIPPED, FileCounts.ZERO, FileCounts.ZERO, snapshot, snapshot != null ? Boolean.TRUE : null,
                Duration.ZERO, 0, null, null,
                "already committed by an earlier attempt" + (snapshot == null ? "" : " in snapshot " + snapshot),
                clock.instant());
    }

    private void count(JobAdmitted job, Operation operation, Engine engine, String routedReason, OperationFinished result,
                       Timer.Sample sample) {
        sample.stop(registry.timer("cryo.executor.step.duration", "operation", operation.id(),
                "status", result.status().id(), "engine", engine.id()));
        registry.counter("cryo.executor.steps", "operation", operation.id(), "status", result.status().id(),
                "engine", engine.id()).increment();
        if (routedReason != null) {
            registry.counter("cryo.executor.steps.routed", "operation", operation.id(), "from", job.engine().id(),
                    "to", engine.id()).increment();
        }
    }
}
