package dev.cryo.platform.error;

/**
 * The kinds of failure an {@link ErrorCode} can be: who can fix it ({@link ErrorType}) and the HTTP
 * status a REST call answers with. A service's error-code enum names its codes and gives each one of
 * these; the type and status follow from it.
 */
public enum ErrorKind {
    /** The request (a body, a parameter, an event) is malformed or contradicts itself. */
    BAD_REQUEST(ErrorType.USER, 400),
    UNAUTHENTICATED(ErrorType.USER, 401),
    FORBIDDEN(ErrorType.USER, 403),
    NOT_FOUND(ErrorType.USER, 404),
    /** The request contradicts the state it meets (a pause, a table setting, a non-empty target). */
    CONFLICT(ErrorType.USER, 409),
    TOO_LARGE(ErrorType.USER, 413),
    /** Well-formed, but nothing can be done with it (a scan that cannot be planned). */
    UNPROCESSABLE(ErrorType.USER, 422),
    /** The operator's configuration is wrong: the service cannot serve until it is fixed. */
    MISCONFIGURED(ErrorType.USER, 500),
    /** Another writer or worker got there first; trying again later may succeed. */
    CONTENDED(ErrorType.EXTERNAL, 409),
    /** A system Cryo depends on answered with a failure. */
    BAD_GATEWAY(ErrorType.EXTERNAL, 502),
    /** A system Cryo depends on did not answer, or not in a usable way. */
    UNAVAILABLE(ErrorType.EXTERNAL, 503),
    /** A system Cryo depends on did not answer in time. */
    TIMEOUT(ErrorType.EXTERNAL, 504),
    /** Cryo itself failed: a bug, or data it refuses to trust. */
    INTERNAL(ErrorType.INTERNAL, 500);

    private final ErrorType type;
    private final int httpStatus;

    ErrorKind(ErrorType type, int httpStatus) {
        this.type = type;
        this.httpStatus = httpStatus;
    }

    public ErrorType type() {
        return type;
    }

    public int httpStatus() {
        return httpStatus;
    }
}
