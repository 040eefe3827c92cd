package dev.cryo.governor.domain;

import java.time.Instant;
import java.util.List;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * The table's latest jobs that failed in a row with the same error a retry does not cure: what
 * stops a job that can never succeed from being admitted again and again. A job that succeeded,
 * was abandoned (its lease ran out), was cancelled (its table was paused), failed with a transient error (a commit conflict, a timeout,
 * an unreachable engine) or with another error ends the streak.
 *
 * @param failures jobs in the streak (0: none)
 * @param errorCode their error code (null when none)
 * @param message the newest one's message (null when none)
 * @param lastFailedAt when the newest one finished (null when none)
 */
public record FailureStreak(int failures, String errorCode, String message, Instant lastFailedAt) {

    /** No failed job. */
    public static final FailureStreak NONE = new FailureStreak(0, null, null, null);

    public FailureStreak {
        if (failures < 0) {
            throw new IllegalArgumentException("failures is negative: " + failures);
        }
        if (failures > 0) {
            requireNonNull(errorCode, "errorCode is null");
            requireNonNull(lastFailedAt, "lastFailedAt is null");
        }
    }

    /** A finished job as the streak sees it. */
    public record FinishedJob(String outcome, String errorCode, String message, Instant finishedAt) {
        public FinishedJob {
            requireNonNull(outcome, "outcome is null");
            requireNonNull(finishedAt, "finishedAt is null");
        }

        boolean failed() {
            return !"succeeded".equals(outcome) && !"abandoned".equals(outcome) && !"cancelled".equals(outcome)
                    && errorCode != null;
        }
    }

    /**
     * The streak of the newest jobs.
     *
     * @param newestFirst the table's finished jobs since an operator last resumed it, newest first
     * @param transientErrorCodes codes a retry may cure
     */
    public static FailureStreak of(List<FinishedJob> newestFirst, Set<String> transientErrorCodes) {
        requireNonNull(newestFirst, "newestFirst is null");
        requireNonNull(transientErrorCodes, "transientErrorCodes is null");
        if (newestFirst.isEmpty()) {
            return NONE;
        }
        FinishedJob newest = newestFirst.get(0);
        if (!newest.failed() || transientErrorCodes.contains(newest.errorCode())) {
            return NONE;
        }
        int failures = 0;
        for (FinishedJob job : newestFirst) {
            if (!job.failed() || !job.errorCode().equals(newest.errorCode())) {
                break;
            }
            failures++;
        }
        return new FailureStreak(failures, newest.errorCode(), newest.message(), newest.finishedAt());
    }
}
