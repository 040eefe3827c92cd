package dev.cryo.executor.engine;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.TableId;

import java.util.Map;

/**
 * Where maintenance runs: the native Iceberg engine inside the executor, or Trino and Spark,
 * which run rendered statements on the user's long-running servers. Every engine commits each
 * step on its own and can tell which steps of a job the table already holds, so a re-run job
 * never commits a step twice.
 */
public interface MaintenanceEngine {

    /** Which engine this is. */
    Engine engine();

    /** What it can run: the executor routes anything else elsewhere. */
    EngineCapabilities capabilities();

    /**
     * Runs one step and commits it. Failures are {@link dev.cryo.platform.error.CryoException}s
     * with an {@link dev.cryo.executor.ExecutorErrorCode} ({@link EngineStepException} on Trino and
     * Spark, with the query ids). The native engine commits nothing of a failed step, except after
     * COMMIT_STATE_UNKNOWN; an engine may have committed part of it (Spark's partial progress).
     */
    StepResult run(StepRequest request);

    /** The steps of a job that the table's current history shows as committed, with the snapshot of each. */
    Map<StepKey, Long> committedSteps(TableId table, String jobId);

    /**
     * Stops the job's running statement, if any: its {@link #run} then fails with
     * ENGINE_CANCELLED. The native engine checks nothing mid-step and finishes the step.
     */
    default void cancel(String jobId) {
    }
}
