package dev.cryo.platform.error;

/** An error code: each service has an enum of its own codes, each of one {@link ErrorKind}. */
public interface ErrorCode {

    /** The stable code, e.g. {@code TABLE_NOT_FOUND}. */
    String name();

    ErrorKind kind();

    default ErrorType type() {
        return kind().type();
    }

    /** The HTTP status a REST call answers with. */
    default int httpStatus() {
        return kind().httpStatus();
    }
}
