package dev.cryo.governor;

import dev.cryo.platform.error.ErrorCode;
import dev.cryo.platform.error.ErrorKind;

/** The governor's own error codes. */
public enum GovernorErrorCode implements ErrorCode {
    /** A pattern, window, cooldown, engine or slot count that cannot be used. */
    INVALID_POLICY(ErrorKind.BAD_REQUEST),
    /** A table id that is not catalog.namespace.table. */
    INVALID_TABLE(ErrorKind.BAD_REQUEST),
    /** No pause with that id. */
    PAUSE_NOT_FOUND(ErrorKind.NOT_FOUND),
    /** No policy for that pattern. */
    POLICY_NOT_FOUND(ErrorKind.NOT_FOUND),
    /** No plan with that id reached this governor. */
    PLAN_NOT_FOUND(ErrorKind.NOT_FOUND),
    /** An event on a governor topic that the governor does not handle there. */
    UNEXPECTED_EVENT(ErrorKind.BAD_REQUEST),
    /** PostgreSQL did not answer or refused a statement. */
    STORE_UNAVAILABLE(ErrorKind.UNAVAILABLE);

    private final ErrorKind kind;

    GovernorErrorCode(ErrorKind kind) {
        this.kind = kind;
    }

    @Override
    public ErrorKind kind() {
        return kind;
    }
}
