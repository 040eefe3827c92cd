package dev.cryo.scanner.domain;

/**
 * What a snapshot's summary says it changed.
 *
 * @param snapshotId the snapshot
 * @param addedRecords its {@code added-records} (0 when absent)
 * @param deletedRecords its {@code deleted-records} (0 when absent)
 * @param hasSummary false when the snapshot carries no summary at all
 */
public record SnapshotChange(long snapshotId, long addedRecords, long deletedRecords, boolean hasSummary) {
}
