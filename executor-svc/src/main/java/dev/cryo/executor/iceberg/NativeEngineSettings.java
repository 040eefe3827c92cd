package dev.cryo.executor.iceberg;

import java.time.Duration;

import static java.util.Objects.requireNonNull;

/**
 * Defaults of the native engine, used where neither the plan nor the table's own properties
 * say otherwise.
 *
 * @param rewrite how files are rewritten and conflicts retried
 * @param snapshotRetention expire_snapshots: snapshots older than this may expire
 * @param retainLast expire_snapshots: snapshots always kept
 * @param orphanAgeFloor remove_orphan_files: files younger than this are never orphans
 * @param orphanDryRun remove_orphan_files only reports, deletes nothing
 */
public record NativeEngineSettings(RewriteSettings rewrite, Duration snapshotRetention, int retainLast,
                                   Duration orphanAgeFloor, boolean orphanDryRun) {
    public NativeEngineSettings {
        requireNonNull(rewrite, "rewrite is null");
        requireNonNull(snapshotRetention, "snapshotRetention is null");
        if (retainLast < 1) {
            throw new IllegalArgumentException("Cannot configure snapshot expiry: retain-last must be at least 1");
        }
        requireNonNull(orphanAgeFloor, "orphanAgeFloor is null");
    }
}
