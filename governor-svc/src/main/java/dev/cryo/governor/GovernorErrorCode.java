package dev.cryo.governor;

import dev.cryo.platform.error.ErrorCode;
import dev.cryo.platform.error.ErrorType;

/** The governor's own error codes. */
public enum GovernorErrorCode implements ErrorCode {
    /** A pattern, window, cooldown, engine or slot count that cannot be used. */
    INVALID_POLICY(ErrorType.USER, 400),
    /** A table id that is not catalog.namespace.table. */
    INVALID_TABLE(ErrorType.USER, 400),
    /** No pause with that id. */
    PAUSE_NOT_FOUND(ErrorType.USER, 404),
    /** No policy for that pattern. */
    POLICY_NOT_FOUND(ErrorType.USER, 404),
    /** No plan with that id reached this governor. */
    PLAN_NOT_FOUND(ErrorType.USER, 404),
    /** An event on a governor topic that the governor does not handle there. */
    UNEXPECTED_EVENT(ErrorType.USER, 400),
    /** PostgreSQL did not answer or refused a statement. */
    STORE_UNAVAILABLE(ErrorType.EXTERNAL, 503);

    private final ErrorType type;
    private final int httpStatus;

    GovernorErrorCode(ErrorType type, int httpStatus) {
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
