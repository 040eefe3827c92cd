package dev.cryo.scorer.config;

import dev.cryo.platform.error.ErrorCode;
import dev.cryo.platform.error.ErrorType;

/** The scorer's own error codes. */
public enum ScorerErrorCode implements ErrorCode {
    /** The table has never been graded (or the id names no table). */
    TABLE_NOT_GRADED(ErrorType.USER, 404),
    /** The path does not hold a {@code catalog.namespace.table} id. */
    INVALID_TABLE_ID(ErrorType.USER, 400),
    /** A query parameter has a value the API does not accept. */
    INVALID_QUERY(ErrorType.USER, 400),
    /** A configured policy override is invalid: the service does not start. */
    INVALID_POLICY(ErrorType.USER, 400),
    /** An event on the scanned topic is not a TableScanned. */
    UNEXPECTED_EVENT(ErrorType.USER, 400),
    /** A stored grade cannot be read back. */
    STORED_GRADE_UNREADABLE(ErrorType.INTERNAL, 500);

    private final ErrorType type;
    private final int httpStatus;

    ScorerErrorCode(ErrorType type, int httpStatus) {
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
