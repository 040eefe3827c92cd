package dev.cryo.contracts.event;

/** A Puffin statistics file registered on the table, and the snapshot it describes. */
public record StatisticsFileInfo(long snapshotId, String path, long sizeBytes) {
    public StatisticsFileInfo {
        Require.nonBlank(path, "path");
        Require.nonNegative(sizeBytes, "sizeBytes");
    }
}
