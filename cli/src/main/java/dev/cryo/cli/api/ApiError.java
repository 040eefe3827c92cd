package dev.cryo.cli.api;

import static java.util.Objects.requireNonNull;

/** A service answered with an error: its HTTP status and the {@code {"code", "type", "message"}} body. */
public class ApiError extends CliException {

    private final Service service;
    private final int status;
    private final String code;

    public ApiError(Service service, int status, String code, String message) {
        super(message);
        this.service = requireNonNull(service, "service is null");
        this.status = status;
        this.code = code;
    }

    public Service service() {
        return service;
    }

    public int status() {
        return status;
    }

    /** The service's error code, e.g. {@code TABLE_NOT_GRADED} (null when the body had none). */
    public String code() {
        return code;
    }

    public boolean isNotFound() {
        return status == 404;
    }
}
