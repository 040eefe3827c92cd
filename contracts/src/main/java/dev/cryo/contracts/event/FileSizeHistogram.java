package dev.cryo.contracts.event;

import java.util.List;

/**
 * Buckets of data-file sizes relative to the table's target file size. Bucket {@code i}
 * counts files with {@code UPPER_BOUNDS[i-1] × target ≤ size < UPPER_BOUNDS[i] × target};
 * the last bucket is open-ended (above twice the target: oversized).
 */
public final class FileSizeHistogram {

    /** Upper bounds, as fractions of the target size, of every bucket but the last. */
    public static final List<Double> UPPER_BOUNDS = List.of(1.0 / 16, 1.0 / 8, 1.0 / 4, 1.0 / 2, 1.0, 2.0);

    /** Number of buckets. */
    public static final int BUCKETS = UPPER_BOUNDS.size() + 1;

    /** The bucket of a file of the given size. */
    public static int bucketOf(long fileSizeBytes, long targetFileSizeBytes) {
        if (targetFileSizeBytes <= 0) {
            throw new IllegalArgumentException("Cannot bucket file size: target file size must be positive, was "
                    + targetFileSizeBytes);
        }
        double relative = (double) fileSizeBytes / targetFileSizeBytes;
        for (int i = 0; i < UPPER_BOUNDS.size(); i++) {
            if (relative < UPPER_BOUNDS.get(i)) {
                return i;
            }
        }
        return UPPER_BOUNDS.size();
    }

    static List<Long> check(List<Long> histogram) {
        List<Long> copy = Require.list(histogram, "sizeHistogram");
        if (!copy.isEmpty() && copy.size() != BUCKETS) {
            throw new IllegalArgumentException("sizeHistogram must have " + BUCKETS + " buckets, had " + copy.size());
        }
        return copy;
    }

    private FileSizeHistogram() {
    }
}
