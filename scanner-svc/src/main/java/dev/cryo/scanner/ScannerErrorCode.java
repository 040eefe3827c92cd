package dev.cryo.scanner;

import dev.cryo.platform.error.ErrorCode;
import dev.cryo.platform.error.ErrorKind;

/** The scanner's own error codes. */
public enum ScannerErrorCode implements ErrorCode {
    /** A request or event names a catalog that is not configured. */
    UNKNOWN_CATALOG(ErrorKind.NOT_FOUND),
    /** The catalog has no such table. */
    TABLE_NOT_FOUND(ErrorKind.NOT_FOUND),
    /** The table has not been scanned yet. */
    SCAN_NOT_FOUND(ErrorKind.NOT_FOUND),
    /** A notification body is malformed, incomplete or too large. */
    INVALID_NOTIFICATION(ErrorKind.BAD_REQUEST),
    /** The table's FileIO cannot list prefixes, so no orphan listing is possible. */
    LISTING_UNSUPPORTED(ErrorKind.BAD_REQUEST),
    /** The table exists but its metadata cannot be read (permissions, corrupt or missing files). */
    TABLE_UNREADABLE(ErrorKind.UNAVAILABLE),
    /** The scanner's PostgreSQL cannot be reached. */
    DATABASE_UNAVAILABLE(ErrorKind.UNAVAILABLE);

    private final ErrorKind kind;

    ScannerErrorCode(ErrorKind kind) {
        this.kind = kind;
    }

    @Override
    public ErrorKind kind() {
        return kind;
    }
}
