package dev.cryo.contracts.event;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;

import java.time.Duration;
import java.time.Instant;

import static java.util.Objects.requireNonNull;

/**
 * One operation, or one chunk of a partition-scoped operation, ended.
 *
 * @param jobId the job
 * @param planId its plan
 * @param table the table
 * @param operation the operation
 * @param chunkIndex the chunk (optional: whole-table operations)
 * @param engine the engine that ran it
 * @param routedReason why it ran on another engine than the job's (optional: it did not)
 * @param status how it ended
 * @param before files touched, before
 * @param after files written, after
 * @param committedSnapshotId the snapshot it committed (optional: nothing committed)
 * @param changed whether it changed the table: committed a snapshot, expired snapshots, deleted
 *                files or registered statistics (optional: the engine cannot tell, or it failed);
 *                false marks a no-op, e.g. an expiry that found no snapshot to expire
 * @param duration wall time
 * @param retries commit retries after conflicts
 * @param queryId the engine's query id (optional: native engine)
 * @param errorCode the error code when it failed (optional)
 * @param message what happened, for people (optional)
 * @param finishedAt when
 */
public record OperationFinished(
        String jobId,
        String planId,
        TableId table,
        Operation operation,
        Integer chunkIndex,
        Engine engine,
        String routedReason,
        OperationStatus status,
        FileCounts before,
        FileCounts after,
        Long committedSnapshotId,
        Boolean changed,
        Duration duration,
        int retries,
        String queryId,
        String errorCode,
        String message,
        Instant finishedAt) implements JobResult {

    public OperationFinished {
        Require.nonBlank(jobId, "jobId");
        Require.nonBlank(planId, "planId");
        requireNonNull(table, "table is null");
        requireNonNull(operation, "operation is null");
        if (chunkIndex != null) {
            Require.nonNegative(chunkIndex, "chunkIndex");
        }
        requireNonNull(engine, "engine is null");
        requireNonNull(status, "status is null");
        before = Require.orDefault(before, FileCounts.ZERO);
        after = Require.orDefault(after, FileCounts.ZERO);
        requireNonNull(duration, "duration is null");
        Require.nonNegative(retries, "retries");
        if (status == OperationStatus.FAILED && errorCode == null) {
            throw new IllegalArgumentException("a failed operation needs an error code");
        }
        requireNonNull(finishedAt, "finishedAt is null");
    }
}
