package dev.cryo.executor.engine;

import dev.cryo.contracts.TableId;

import java.time.Instant;
import java.util.List;

/** The jobs that run on a table now, as the executors' attempt records know them. */
public interface RunningJobs {

    /** No other job ever runs. */
    RunningJobs NONE = (table, jobId) -> List.of();

    /**
     * When each job other than {@code jobId} that runs on the table now (its heartbeat within the
     * lease timeout) started.
     */
    List<Instant> othersStarted(TableId table, String jobId);
}
