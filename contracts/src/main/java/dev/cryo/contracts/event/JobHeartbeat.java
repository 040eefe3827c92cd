package dev.cryo.contracts.event;

import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;

import java.time.Instant;

import static java.util.Objects.requireNonNull;

/**
 * An executor is still working on a job: the governor extends the job's lease, the console
 * shows the progress. A job whose heartbeats stop loses its lease and is taken over.
 *
 * @param jobId the job
 * @param planId its plan
 * @param table the table
 * @param executorId the executor instance
 * @param sentAt when
 * @param operation the operation running now (optional: between operations)
 * @param chunksDone chunks of partition-scoped operations committed so far, in this job
 * @param chunksTotal chunks of partition-scoped operations in the plan
 */
public record JobHeartbeat(
        String jobId,
        String planId,
        TableId table,
        String executorId,
        Instant sentAt,
        Operation operation,
        int chunksDone,
        int chunksTotal) implements JobResult {

    public JobHeartbeat {
        Require.nonBlank(jobId, "jobId");
        Require.nonBlank(planId, "planId");
        requireNonNull(table, "table is null");
        Require.nonBlank(executorId, "executorId");
        requireNonNull(sentAt, "sentAt is null");
        Require.nonNegative(chunksDone, "chunksDone");
        Require.nonNegative(chunksTotal, "chunksTotal");
    }
}
