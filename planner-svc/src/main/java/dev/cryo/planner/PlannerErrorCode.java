package dev.cryo.planner;

import dev.cryo.platform.error.ErrorCode;
import dev.cryo.platform.error.ErrorType;

/** What can go wrong in the planner, and who can fix it. */
public enum PlannerErrorCode implements ErrorCode {
    /** The planner has stored no grade (or no plan) of the table. */
    TABLE_NOT_KNOWN(ErrorType.USER, 404),
    /** No plan with that id. */
    PLAN_NOT_KNOWN(ErrorType.USER, 404),
    /** The job has no score yet: it has not finished, or no grade has shown it yet. */
    JOB_NOT_SCORED(ErrorType.USER, 404),
    /** The latest grade names a scan that has not arrived (or was pruned). */
    SCAN_NOT_STORED(ErrorType.USER, 409),
    /** A scan the planner cannot address partitions of: an unknown spec, values that do not fit it. */
    UNPLANNABLE_SCAN(ErrorType.USER, 422),
    /** A plan too large for one Kafka record; the message names the setting that shrinks it. */
    PLAN_TOO_LARGE(ErrorType.USER, 422),
    /** An event of a type the consumer does not handle arrived on its topic. */
    UNEXPECTED_EVENT(ErrorType.USER, 400),
    /** A setting is out of range; the message names it. */
    INVALID_CONFIGURATION(ErrorType.USER, 500);

    private final ErrorType type;
    private final int httpStatus;

    PlannerErrorCode(ErrorType type, int httpStatus) {
        this.type = type;
        this.httpStatus = httpStatus;
    }

    @Override
    public ErrorType type() {
        return type;
    }

    @Override
    public int httpStatus() {
        return httpStatus;
    }
}
