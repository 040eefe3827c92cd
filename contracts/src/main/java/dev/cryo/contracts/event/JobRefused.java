package dev.cryo.contracts.event;

import dev.cryo.contracts.TableId;

import java.time.Instant;

import static java.util.Objects.requireNonNull;

/**
 * An executor would not start one admission of a job: its lease had ended, it was older than the
 * executor accepts, or it was stamped in the future. The job itself is not ended by this event:
 * the governor admits it again under the same id when its lease runs out (or releases the table
 * after its last attempt), so a refusal never frees a lock that a later admission still holds.
 *
 * @param jobId the job
 * @param planId its plan
 * @param table the table
 * @param executorId the executor instance that refused
 * @param admittedAt when the refused admission was made (tells attempts of one job apart)
 * @param leaseExpiresAt the lease that admission carried
 * @param reason why, as a stable code: lease-expired, admission-too-old, admitted-in-future
 * @param message what happened and what follows, for people
 * @param refusedAt when
 */
public record JobRefused(
        String jobId,
        String planId,
        TableId table,
        String executorId,
        Instant admittedAt,
        Instant leaseExpiresAt,
        String reason,
        String message,
        Instant refusedAt) implements JobResult {

    public JobRefused {
        Require.nonBlank(jobId, "jobId");
        Require.nonBlank(planId, "planId");
        requireNonNull(table, "table is null");
        Require.nonBlank(executorId, "executorId");
        requireNonNull(admittedAt, "admittedAt is null");
        requireNonNull(leaseExpiresAt, "leaseExpiresAt is null");
        Require.nonBlank(reason, "reason");
        Require.nonBlank(message, "message");
        requireNonNull(refusedAt, "refusedAt is null");
    }
}
