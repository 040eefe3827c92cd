package dev.cryo.scorer;

import dev.cryo.platform.error.ErrorCode;
import dev.cryo.platform.error.ErrorKind;

/** The scorer's own error codes. */
public enum ScorerErrorCode implements ErrorCode {
    /** The table has never been graded (or the id names no table). */
    TABLE_NOT_GRADED(ErrorKind.NOT_FOUND),
    /** The path does not hold a {@code catalog.namespace.table} id. */
    INVALID_TABLE_ID(ErrorKind.BAD_REQUEST),
    /** A query parameter has a value the API does not accept. */
    INVALID_QUERY(ErrorKind.BAD_REQUEST),
    /** A configured policy override is invalid: the service does not start. */
    INVALID_POLICY(ErrorKind.BAD_REQUEST),
    /** An event on the scanned topic is not a TableScanned. */
    UNEXPECTED_EVENT(ErrorKind.BAD_REQUEST),
    /** A stored grade cannot be read back. */
    STORED_GRADE_UNREADABLE(ErrorKind.INTERNAL);

    private final ErrorKind kind;

    ScorerErrorCode(ErrorKind kind) {
        this.kind = kind;
    }

    @Override
    public ErrorKind kind() {
        return kind;
    }
}
