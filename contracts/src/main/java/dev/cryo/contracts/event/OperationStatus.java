package dev.cryo.contracts.event;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Locale;

/** How one operation (or one chunk of it) ended. */
public enum OperationStatus {
    /** Committed (or had nothing to do and said so). */
    SUCCEEDED,
    /** Failed; the error code and message say why. Nothing of it was committed. */
    FAILED,
    /** Not run: an earlier attempt already committed it, or the job stopped before it. */
    SKIPPED;

    @JsonValue
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static OperationStatus fromId(String id) {
        return valueOf(id.toUpperCase(Locale.ROOT));
    }
}
