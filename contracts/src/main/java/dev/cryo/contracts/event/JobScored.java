package dev.cryo.contracts.event;

import dev.cryo.contracts.Grade;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;

import java.time.Instant;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * How a finished job kept its plan's promise: the score the plan expected against the first grade
 * of the table after the job. The planner publishes it on {@code cryo.jobs.results.v1}, after the
 * executor's {@link JobFinished}, once that grade arrives (for a job that changed nothing, the
 * first grade of a scan after its end); a job after which no grade arrives in time is published
 * without an actual score, saying so.
 *
 * @param jobId the job
 * @param planId its plan
 * @param table the table
 * @param outcome how the job ended
 * @param scoreBefore the score the plan was made from
 * @param expectedScore the score the plan expected after it
 * @param actualScore the score of the first grade of a scan that started after the job finished
 *                    (optional: no such grade arrived in time)
 * @param actualGrade its grade (optional, with {@code actualScore})
 * @param scanId the scan of that grade (optional, with {@code actualScore})
 * @param remaining the deductions of that grade whose operation the plan had planned: why the job
 *                  fell short, if it did
 * @param noOp true when no operation of the job changed the table
 * @param noOpOperations the operations that ran to the end and changed nothing, in the fixed order
 * @param message what happened, for people
 * @param scoredAt when it was scored
 */
public record JobScored(
        String jobId,
        String planId,
        TableId table,
        JobOutcome outcome,
        int scoreBefore,
        int expectedScore,
        Integer actualScore,
        Grade actualGrade,
        String scanId,
        List<Deduction> remaining,
        boolean noOp,
        List<Operation> noOpOperations,
        String message,
        Instant scoredAt) implements JobResult {

    public JobScored {
        Require.nonBlank(jobId, "jobId");
        Require.nonBlank(planId, "planId");
        requireNonNull(table, "table is null");
        requireNonNull(outcome, "outcome is null");
        score(scoreBefore, "scoreBefore");
        score(expectedScore, "expectedScore");
        if (actualScore == null) {
            if (actualGrade != null || scanId != null) {
                throw new IllegalArgumentException("an unscored job has no actual grade or scan");
            }
        } else {
            score(actualScore, "actualScore");
            if (Grade.of(actualScore) != actualGrade) {
                throw new IllegalArgumentException("grade " + actualGrade + " does not match score " + actualScore);
            }
            Require.nonBlank(scanId, "scanId");
        }
        remaining = Require.list(remaining, "remaining");
        noOpOperations = Require.list(noOpOperations, "noOpOperations");
        Require.nonBlank(message, "message");
        requireNonNull(scoredAt, "scoredAt is null");
    }

    /** True when a grade after the job reached the expected score. */
    public boolean reached() {
        return actualScore != null && actualScore >= expectedScore;
    }

    /** Points short of the expected score (0 when reached), or null when no grade followed. */
    public Integer shortfall() {
        return actualScore == null ? null : Math.max(0, expectedScore - actualScore);
    }

    private static void score(int value, String name) {
        if (value < 0 || value > Grade.MAX_SCORE) {
            throw new IllegalArgumentException(name + " must be within 0.." + Grade.MAX_SCORE + ": " + value);
        }
    }
}
