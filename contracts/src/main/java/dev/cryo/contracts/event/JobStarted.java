package dev.cryo.contracts.event;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.TableId;

import java.time.Instant;

import static java.util.Objects.requireNonNull;

/**
 * An executor started (or resumed) a job.
 *
 * @param jobId the job
 * @param planId its plan
 * @param table the table
 * @param engine the engine it runs on
 * @param executorId the executor instance
 * @param attempt 1 for the first run, higher when resumed after a crash or redelivery
 * @param startedAt when
 * @param chunksAlreadyCommitted chunks found committed by an earlier attempt and skipped
 */
public record JobStarted(
        String jobId,
        String planId,
        TableId table,
        Engine engine,
        String executorId,
        int attempt,
        Instant startedAt,
        int chunksAlreadyCommitted) implements JobResult {

    public JobStarted {
        Require.nonBlank(jobId, "jobId");
        Require.nonBlank(planId, "planId");
        requireNonNull(table, "table is null");
        requireNonNull(engine, "engine is null");
        Require.nonBlank(executorId, "executorId");
        if (attempt < 1) {
            throw new IllegalArgumentException("attempt must be at least 1: " + attempt);
        }
        requireNonNull(startedAt, "startedAt is null");
        Require.nonNegative(chunksAlreadyCommitted, "chunksAlreadyCommitted");
    }
}
