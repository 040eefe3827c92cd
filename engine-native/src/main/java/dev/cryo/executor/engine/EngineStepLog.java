package dev.cryo.executor.engine;

import dev.cryo.contracts.Engine;

import java.time.Instant;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Where Trino and Spark steps are written down before their statements run. An engine's commit
 * cannot carry Cryo's {@code cryo.job-id} snapshot property, so after a crash this record (which
 * snapshot the table was at when the step began) is what connects the engine's commits in the
 * table history to the step.
 */
public interface EngineStepLog {

    /** A step that began on an engine. */
    record StartedStep(StepKey step, Engine engine, Long startSnapshotId, Instant startedAt) {
        public StartedStep {
            requireNonNull(step, "step is null");
            requireNonNull(engine, "engine is null");
            requireNonNull(startedAt, "startedAt is null");
        }
    }

    /** Records that the step begins now on the engine, at that snapshot (null: the table has none). */
    void started(String jobId, StepKey step, Engine engine, Long startSnapshotId);

    /** The job's steps that began on any engine, oldest first (each step once, its latest start). */
    List<StartedStep> started(String jobId);
}
