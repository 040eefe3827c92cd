package dev.cryo.scoring;

/** An override that cannot be used: not a valid value, an unknown check or setting, or limits in the wrong order. */
public class InvalidPolicyException extends IllegalArgumentException {
    public InvalidPolicyException(String message) {
        super(message);
    }

    public InvalidPolicyException(String message, Throwable cause) {
        super(message, cause);
    }
}
