package dev.cryo.governor.domain;

/**
 * A pattern, window or policy value that cannot be used. The message reads "Cannot ...: ..."
 * and says what to write instead; the REST layer answers it with 400.
 */
public class InvalidPolicyException extends IllegalArgumentException {

    public InvalidPolicyException(String message) {
        super(message);
    }

    public InvalidPolicyException(String message, Throwable cause) {
        super(message, cause);
    }
}
