package dev.cryo.bench.domain;

import static java.util.Objects.requireNonNull;

/**
 * One execution of a dashboard query (scenario 4): when it ran, by wall clock, and whether it failed.
 *
 * @param query the query's name in the mix
 * @param startMillis epoch milliseconds when it was sent
 * @param endMillis epoch milliseconds when its last row was read, or when it failed
 * @param error the failure's message, or null when the query answered
 */
public record QuerySample(String query, long startMillis, long endMillis, String error) {

    public QuerySample {
        requireNonNull(query, "query is null");
        if (endMillis < startMillis) {
            throw new IllegalArgumentException("Cannot record query " + query + ": it ends (" + endMillis
                    + ") before it starts (" + startMillis + ")");
        }
    }

    public boolean failed() {
        return error != null;
    }

    public double latencySeconds() {
        return (endMillis - startMillis) / 1000.0;
    }

    /** Whether the query ran at some moment of the window (the window's ends included). */
    public boolean overlaps(TimeWindow window) {
        return startMillis <= window.endMillis() && endMillis >= window.startMillis();
    }
}
