package dev.cryo.platform.error;

import static java.util.Objects.requireNonNull;

/**
 * The one exception type of Cryo services. Messages read "Cannot &lt;action&gt;: &lt;reason&gt;"
 * and name the setting to change where there is one.
 */
public class CryoException extends RuntimeException {

    private final ErrorCode code;

    public CryoException(ErrorCode code, String message) {
        super(requireNonNull(message, "message is null"));
        this.code = requireNonNull(code, "code is null");
    }

    public CryoException(ErrorCode code, String message, Throwable cause) {
        super(requireNonNull(message, "message is null"), cause);
        this.code = requireNonNull(code, "code is null");
    }

    public ErrorCode code() {
        return code;
    }

    public boolean isRetryable() {
        return code.type() == ErrorType.EXTERNAL;
    }

    public static CryoException invalid(String message) {
        return new CryoException(CommonErrorCode.INVALID_REQUEST, message);
    }

    public static CryoException notFound(String message) {
        return new CryoException(CommonErrorCode.NOT_FOUND, message);
    }
}
