package dev.cryo.scanner.domain;

/**
 * What a snapshot's summary says it changed.
 *
 * @param snapshotId the snapshot
 * @param addedRecords its {@code added-records} (0 when absent)
 * @param deletedRecords its {@code deleted-records} (0 when absent)
 * @param hasSummary false when the snapshot carries no summary at all
 * @param rewrite true for a {@code replace} snapshot (compaction, manifest or delete-file rewrite): it
 *                writes the same rows again, so its added and deleted records change no row
 */
public record SnapshotChange(long snapshotId, long addedRecords, long deletedRecords, boolean hasSummary,
                             boolean rewrite) {
}
