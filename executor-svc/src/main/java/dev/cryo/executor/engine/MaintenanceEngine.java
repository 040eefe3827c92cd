package dev.cryo.executor.engine;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.TableId;
import dev.cryo.executor.domain.StepKey;

import java.util.Map;

/**
 * Where maintenance runs: the native Iceberg engine now, Trino and Spark later. Every engine
 * commits each step on its own, tags its snapshot with {@link CommitTags}, and can tell which
 * steps of a job the table already holds, so a re-run job never commits a step twice.
 */
public interface MaintenanceEngine {

    /** Which engine this is. */
    Engine engine();

    /** What it can run: the executor routes anything else elsewhere. */
    EngineCapabilities capabilities();

    /**
     * Runs one step and commits it. Failures are {@link dev.cryo.platform.error.CryoException}s
     * with an {@link dev.cryo.executor.ExecutorErrorCode}; nothing of a failed step is committed,
     * except after COMMIT_STATE_UNKNOWN, when nobody knows (the next attempt reads the history).
     */
    StepResult run(StepRequest request);

    /** The steps of a job that the table's current history holds, with the snapshot of each. */
    Map<StepKey, Long> committedSteps(TableId table, String jobId);
}
