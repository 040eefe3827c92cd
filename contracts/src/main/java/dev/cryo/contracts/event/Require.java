package dev.cryo.contracts.event;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/** Validation shared by the event records' compact constructors. */
final class Require {

    static long nonNegative(long value, String name) {
        if (value < 0) {
            throw new IllegalArgumentException(name + " is negative: " + value);
        }
        return value;
    }

    static int nonNegative(int value, String name) {
        if (value < 0) {
            throw new IllegalArgumentException(name + " is negative: " + value);
        }
        return value;
    }

    static String nonBlank(String value, String name) {
        requireNonNull(value, name + " is null");
        if (value.isBlank()) {
            throw new IllegalArgumentException(name + " is blank");
        }
        return value;
    }

    static <T> List<T> list(List<T> values, String name) {
        return List.copyOf(requireNonNull(values, name + " is null"));
    }

    /** A copy that keeps null elements (partition values may be null). */
    static <T> List<T> listWithNulls(List<T> values, String name) {
        requireNonNull(values, name + " is null");
        return Collections.unmodifiableList(new ArrayList<>(values));
    }

    /** A sorted, immutable copy, so equal maps serialize identically. */
    static Map<String, String> sortedMap(Map<String, String> values, String name) {
        requireNonNull(values, name + " is null");
        return Collections.unmodifiableMap(new TreeMap<>(values));
    }

    static <T> T orDefault(T value, T fallback) {
        return value == null ? fallback : value;
    }

    private Require() {
    }
}
