package dev.cryo.contracts.event;

import dev.cryo.contracts.TableId;

import java.time.Instant;

import static java.util.Objects.requireNonNull;

/**
 * The governor withdrew an admitted job because an operator paused its table after the
 * admission. An executor that has not started the job does not start it; one that runs it stops
 * before its next step. Either way the job ends as cancelled with error code {@code TABLE_PAUSED}.
 * Published on the admitted-jobs topic, keyed by the table like the admission it withdraws.
 *
 * @param jobId the job
 * @param planId its plan
 * @param table the table
 * @param pauseId the pause that withdrew it
 * @param message who paused what and why, for people
 * @param revokedAt when
 */
public record JobRevoked(
        String jobId,
        String planId,
        TableId table,
        String pauseId,
        String message,
        Instant revokedAt) implements CryoEvent {

    public JobRevoked {
        Require.nonBlank(jobId, "jobId");
        Require.nonBlank(planId, "planId");
        requireNonNull(table, "table is null");
        Require.nonBlank(pauseId, "pauseId");
        Require.nonBlank(message, "message");
        requireNonNull(revokedAt, "revokedAt is null");
    }
}
