package dev.cryo.contracts;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Locale;

/** Where a maintenance job runs. NATIVE is Cryo's embedded Iceberg Java engine. */
public enum Engine {
    NATIVE, TRINO, SPARK;

    @JsonValue
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static Engine fromId(String id) {
        try {
            return valueOf(id.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Cannot parse engine '" + id + "': expected native, trino or spark", e);
        }
    }
}
