package dev.cryo.scanner.config;

import dev.cryo.platform.error.ErrorCode;
import dev.cryo.platform.error.ErrorType;

/** The scanner's own error codes. */
public enum ScannerErrorCode implements ErrorCode {
    /** A request or event names a catalog that is not configured. */
    UNKNOWN_CATALOG(ErrorType.USER, 404),
    /** The catalog has no such table. */
    TABLE_NOT_FOUND(ErrorType.USER, 404),
    /** The table has not been scanned yet. */
    SCAN_NOT_FOUND(ErrorType.USER, 404),
    /** A notification body is malformed, incomplete or too large. */
    INVALID_NOTIFICATION(ErrorType.USER, 400),
    /** The table's FileIO cannot list prefixes, so no orphan listing is possible. */
    LISTING_UNSUPPORTED(ErrorType.USER, 400),
    /** The table exists but its metadata cannot be read (permissions, corrupt or missing files). */
    TABLE_UNREADABLE(ErrorType.EXTERNAL, 503),
    /** The scanner's PostgreSQL cannot be reached. */
    DATABASE_UNAVAILABLE(ErrorType.EXTERNAL, 503);

    private final ErrorType type;
    private final int httpStatus;

    ScannerErrorCode(ErrorType type, int httpStatus) {
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
