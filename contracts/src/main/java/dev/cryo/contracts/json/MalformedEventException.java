package dev.cryo.contracts.json;

/** A record that is not a valid Cryo event. Consumers dead-letter it with this message. */
public class MalformedEventException extends RuntimeException {
    public MalformedEventException(String message) {
        super(message);
    }

    public MalformedEventException(String message, Throwable cause) {
        super(message, cause);
    }
}
