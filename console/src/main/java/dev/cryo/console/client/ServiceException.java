package dev.cryo.console.client;

import java.net.URI;

import static java.util.Objects.requireNonNull;

/**
 * A service call that did not give the console what it asked for: the service could not be reached,
 * refused the request (an error answer with its code and message), or answered something the
 * console cannot read. Pages show {@link #describe()} in place of the part they could not fill.
 */
public final class ServiceException extends RuntimeException {

    /** How the call failed. */
    public enum Kind {
        /** No answer: connection refused, timed out or closed. */
        UNREACHABLE,
        /** An error status with the service's {@code {"code", "type", "message"}}. */
        REFUSED,
        /** An answer the console cannot decode (a service of another version). */
        UNREADABLE
    }

    private final Service service;
    private final URI baseUri;
    private final Kind kind;
    private final int status;
    private final String code;
    private final String serviceMessage;

    private ServiceException(Service service, URI baseUri, Kind kind, int status, String code, String serviceMessage,
                             Throwable cause) {
        super(describe(service, baseUri, kind, status, code, serviceMessage), cause);
        this.service = requireNonNull(service, "service is null");
        this.baseUri = requireNonNull(baseUri, "baseUri is null");
        this.kind = requireNonNull(kind, "kind is null");
        this.status = status;
        this.code = code;
        this.serviceMessage = serviceMessage;
    }

    public static ServiceException unreachable(Service service, URI baseUri, String reason, Throwable cause) {
        return new ServiceException(service, baseUri, Kind.UNREACHABLE, 0, null, reason, cause);
    }

    public static ServiceException refused(Service service, URI baseUri, int status, String code, String message) {
        return new ServiceException(service, baseUri, Kind.REFUSED, status, code, message, null);
    }

    public static ServiceException unreadable(Service service, URI baseUri, String reason, Throwable cause) {
        return new ServiceException(service, baseUri, Kind.UNREADABLE, 0, null, reason, cause);
    }

    public Service service() {
        return service;
    }

    public Kind kind() {
        return kind;
    }

    /** The HTTP status of a refusal; 0 when there was no answer. */
    public int status() {
        return status;
    }

    /** The service's error code of a refusal, e.g. {@code TABLE_NOT_GRADED} (may be null). */
    public String code() {
        return code;
    }

    /** The service's own message of a refusal, or the reason there was no usable answer. */
    public String serviceMessage() {
        return serviceMessage;
    }

    /** True when the service answered 404: the thing does not exist (yet), which pages show as such, not as an error. */
    public boolean isNotFound() {
        return kind == Kind.REFUSED && status == 404;
    }

    /** One line for the operator, e.g. "scorer unreachable at http://127.0.0.1:8182: connection refused". */
    public String describe() {
        return getMessage();
    }

    private static String describe(Service service, URI baseUri, Kind kind, int status, String code, String message) {
        return switch (kind) {
            case UNREACHABLE -> service + " unreachable at " + baseUri + (message == null ? "" : ": " + message);
            case REFUSED -> service + " answered " + status + (code == null ? "" : " " + code)
                    + (message == null || message.isBlank() ? "" : ": " + message);
            case UNREADABLE -> service + " answered something the console cannot read"
                    + (message == null ? "" : ": " + message);
        };
    }
}
