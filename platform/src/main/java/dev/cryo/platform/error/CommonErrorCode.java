package dev.cryo.platform.error;

/** Error codes every service uses. */
public enum CommonErrorCode implements ErrorCode {
    INVALID_REQUEST(ErrorType.USER, 400),
    NOT_FOUND(ErrorType.USER, 404),
    CONFLICT(ErrorType.USER, 409),
    PAYLOAD_TOO_LARGE(ErrorType.USER, 413),
    UNAUTHENTICATED(ErrorType.USER, 401),
    FORBIDDEN(ErrorType.USER, 403),
    MALFORMED_EVENT(ErrorType.USER, 400),
    DEPENDENCY_UNAVAILABLE(ErrorType.EXTERNAL, 503),
    INTERNAL_ERROR(ErrorType.INTERNAL, 500);

    private final ErrorType type;
    private final int httpStatus;

    CommonErrorCode(ErrorType type, int httpStatus) {
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
