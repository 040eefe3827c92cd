package dev.cryo.contracts.event;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Arrays;

/** Why the governor did not admit a plan now. The admission checks run in this order. */
public enum DeferReason {
    /** The table (or a pattern that matches it) is paused. */
    PAUSED("paused"),
    /**
     * The table's last jobs failed with the same error that a retry does not cure, as many times as
     * allowed: it waits for an operator to resume it.
     */
    BLOCKED("blocked"),
    /** The last job on the table finished less than the cooldown ago. */
    COOLDOWN("cooldown"),
    /** The table's last job failed: the next attempt waits a backoff that doubles with every failure. */
    RETRY_BACKOFF("retry-backoff"),
    /** Maintenance is allowed only in windows, and now is outside all of them. */
    OUTSIDE_WINDOW("outside-window"),
    /** Another job holds the table's lock. */
    LOCKED("locked"),
    /** The engine's live load is over its limit. */
    ENGINE_BUSY("engine-busy"),
    /** The engine's maintenance slots are all in use. */
    NO_SLOT("no-slot"),
    /** A newer plan for the table replaced this one; it will not run. */
    SUPERSEDED("superseded");

    private final String id;

    DeferReason(String id) {
        this.id = id;
    }

    @JsonValue
    public String id() {
        return id;
    }

    @JsonCreator
    public static DeferReason fromId(String id) {
        return Arrays.stream(values()).filter(reason -> reason.id.equals(id)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Cannot parse defer reason '" + id
                        + "': expected one of " + Arrays.stream(values()).map(DeferReason::id).toList()));
    }
}
