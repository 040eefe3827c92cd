package dev.cryo.contracts.event;

/**
 * Manifests of the current snapshot.
 *
 * @param count manifests in the current manifest list
 * @param bytes their total size
 * @param dataManifests manifests of data files
 * @param deleteManifests manifests of delete files
 * @param smallManifests manifests below the scanner's small-manifest size
 * @param partitionSpanShare mean share of the table's partitions that one manifest's partition bounds
 *                           span, 0..1 (optional: not measurable, e.g. unpartitioned table)
 */
public record ManifestStats(int count, long bytes, int dataManifests, int deleteManifests, int smallManifests,
                            Double partitionSpanShare) {
    public static final ManifestStats NONE = new ManifestStats(0, 0, 0, 0, 0, null);

    public ManifestStats {
        Require.nonNegative(count, "count");
        Require.nonNegative(bytes, "bytes");
        Require.nonNegative(dataManifests, "dataManifests");
        Require.nonNegative(deleteManifests, "deleteManifests");
        Require.nonNegative(smallManifests, "smallManifests");
        if (partitionSpanShare != null && (partitionSpanShare < 0 || partitionSpanShare > 1)) {
            throw new IllegalArgumentException("partitionSpanShare must be within 0..1: " + partitionSpanShare);
        }
    }
}
