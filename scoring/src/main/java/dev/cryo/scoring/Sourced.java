package dev.cryo.scoring;

import static java.util.Objects.requireNonNull;

/**
 * A policy value with its provenance.
 *
 * @param value the value
 * @param source the layer it came from
 * @param key the configuration key or table property that set it (null for defaults)
 */
public record Sourced<T>(T value, Source source, String key) {
    public Sourced {
        requireNonNull(value, "value is null");
        requireNonNull(source, "source is null");
    }

    static <T> Sourced<T> byDefault(T value) {
        return new Sourced<>(value, Source.DEFAULT, null);
    }

    /** How messages name it: the key, or {@code default}. */
    String origin() {
        return key == null ? source.toString() : key;
    }
}
