package dev.cryo.executor.engine;

import java.time.Duration;

import static java.util.Objects.requireNonNull;

/** Exponential backoff between retries: first, first × 2, … capped at max. */
public record Backoff(Duration first, Duration max) {

    public Backoff {
        requireNonNull(first, "first is null");
        requireNonNull(max, "max is null");
        if (first.isNegative() || max.compareTo(first) < 0) {
            throw new IllegalArgumentException("Cannot back off: need 0 <= first <= max, got " + first + " and " + max);
        }
    }

    /** The wait before retry number {@code retry} (1 for the first retry). */
    public Duration delay(int retry) {
        if (retry < 1) {
            return Duration.ZERO;
        }
        Duration delay = first;
        for (int i = 1; i < retry && delay.compareTo(max) < 0; i++) {
            delay = delay.multipliedBy(2);
        }
        return delay.compareTo(max) > 0 ? max : delay;
    }
}
