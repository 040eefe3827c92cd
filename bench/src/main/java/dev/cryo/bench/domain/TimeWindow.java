package dev.cryo.bench.domain;

/**
 * A span of wall-clock time, epoch milliseconds, both ends included: when a contender maintained a table.
 *
 * @param startMillis first moment
 * @param endMillis last moment
 */
public record TimeWindow(long startMillis, long endMillis) {

    public TimeWindow {
        if (endMillis < startMillis) {
            throw new IllegalArgumentException("Cannot make a window that ends (" + endMillis + ") before it starts ("
                    + startMillis + ")");
        }
    }

    public double seconds() {
        return (endMillis - startMillis) / 1000.0;
    }
}
