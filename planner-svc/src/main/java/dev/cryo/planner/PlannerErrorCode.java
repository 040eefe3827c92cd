package dev.cryo.planner;

import dev.cryo.platform.error.ErrorCode;
import dev.cryo.platform.error.ErrorKind;

/** What can go wrong in the planner, and who can fix it. */
public enum PlannerErrorCode implements ErrorCode {
    /** The planner has stored no grade (or no plan) of the table. */
    TABLE_NOT_KNOWN(ErrorKind.NOT_FOUND),
    /** No plan with that id. */
    PLAN_NOT_KNOWN(ErrorKind.NOT_FOUND),
    /** The job has no score yet: it has not finished, or no grade has shown it yet. */
    JOB_NOT_SCORED(ErrorKind.NOT_FOUND),
    /** The latest grade names a scan that has not arrived (or was pruned). */
    SCAN_NOT_STORED(ErrorKind.CONFLICT),
    /** A scan the planner cannot address partitions of: an unknown spec, values that do not fit it. */
    UNPLANNABLE_SCAN(ErrorKind.UNPROCESSABLE),
    /** A plan too large for one Kafka record; the message names the setting that shrinks it. */
    PLAN_TOO_LARGE(ErrorKind.UNPROCESSABLE),
    /** An event of a type the consumer does not handle arrived on its topic. */
    UNEXPECTED_EVENT(ErrorKind.BAD_REQUEST),
    /** A setting is out of range; the message names it. */
    INVALID_CONFIGURATION(ErrorKind.MISCONFIGURED);

    private final ErrorKind kind;

    PlannerErrorCode(ErrorKind kind) {
        this.kind = kind;
    }

    @Override
    public ErrorKind kind() {
        return kind;
    }
}
