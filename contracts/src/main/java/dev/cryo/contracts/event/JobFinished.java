package dev.cryo.contracts.event;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.TableId;

import java.time.Duration;
import java.time.Instant;

import static java.util.Objects.requireNonNull;

/**
 * A job ended. The governor frees its slot and the table's lock on this event.
 *
 * @param jobId the job
 * @param planId its plan
 * @param table the table
 * @param engine the job's engine
 * @param outcome succeeded, partially succeeded, failed or cancelled
 * @param operationsSucceeded operations (or chunks) committed
 * @param operationsFailed operations (or chunks) failed
 * @param duration wall time of the job
 * @param errorCode the first error's code (optional)
 * @param message what happened, for people (optional)
 * @param finishedAt when
 */
public record JobFinished(
        String jobId,
        String planId,
        TableId table,
        Engine engine,
        JobOutcome outcome,
        int operationsSucceeded,
        int operationsFailed,
        Duration duration,
        String errorCode,
        String message,
        Instant finishedAt) implements JobResult {

    public JobFinished {
        Require.nonBlank(jobId, "jobId");
        Require.nonBlank(planId, "planId");
        requireNonNull(table, "table is null");
        requireNonNull(engine, "engine is null");
        requireNonNull(outcome, "outcome is null");
        Require.nonNegative(operationsSucceeded, "operationsSucceeded");
        Require.nonNegative(operationsFailed, "operationsFailed");
        requireNonNull(duration, "duration is null");
        if (outcome != JobOutcome.SUCCEEDED && errorCode == null) {
            throw new IllegalArgumentException("a job that did not succeed needs an error code");
        }
        requireNonNull(finishedAt, "finishedAt is null");
    }
}
