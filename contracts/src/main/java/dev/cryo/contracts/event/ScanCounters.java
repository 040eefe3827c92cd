package dev.cryo.contracts.event;

/**
 * What the scan had to read.
 *
 * @param manifestsRead manifests opened and read during this scan
 * @param manifestsCached manifests whose aggregates came from the cache
 */
public record ScanCounters(int manifestsRead, int manifestsCached) {
    public ScanCounters {
        Require.nonNegative(manifestsRead, "manifestsRead");
        Require.nonNegative(manifestsCached, "manifestsCached");
    }
}
