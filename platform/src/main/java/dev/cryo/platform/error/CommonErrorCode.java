package dev.cryo.platform.error;

/** Error codes every service uses. */
public enum CommonErrorCode implements ErrorCode {
    INVALID_REQUEST(ErrorKind.BAD_REQUEST),
    NOT_FOUND(ErrorKind.NOT_FOUND),
    CONFLICT(ErrorKind.CONFLICT),
    PAYLOAD_TOO_LARGE(ErrorKind.TOO_LARGE),
    UNAUTHENTICATED(ErrorKind.UNAUTHENTICATED),
    FORBIDDEN(ErrorKind.FORBIDDEN),
    MALFORMED_EVENT(ErrorKind.BAD_REQUEST),
    DEPENDENCY_UNAVAILABLE(ErrorKind.UNAVAILABLE),
    INTERNAL_ERROR(ErrorKind.INTERNAL);

    private final ErrorKind kind;

    CommonErrorCode(ErrorKind kind) {
        this.kind = kind;
    }

    @Override
    public ErrorKind kind() {
        return kind;
    }
}
