package dev.cryo.platform.error;

/** An error code: each service has an enum of its own codes, tagged with their type and HTTP status. */
public interface ErrorCode {

    /** The stable code, e.g. {@code TABLE_NOT_FOUND}. */
    String name();

    ErrorType type();

    /** The HTTP status a REST call answers with. */
    default int httpStatus() {
        return switch (type()) {
            case USER -> 400;
            case EXTERNAL -> 503;
            case INTERNAL -> 500;
        };
    }
}
