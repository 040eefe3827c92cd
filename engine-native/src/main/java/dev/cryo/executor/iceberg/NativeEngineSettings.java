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
 * @param orphans remove_orphan_files: age floor, storage equivalences, share brake, batches, dry run
 */
public record NativeEngineSettings(RewriteSettings rewrite, Duration snapshotRetention, int retainLast,
                                   OrphanRemovalSettings orphans) {
    public NativeEngineSettings {
        requireNonNull(rewrite, "rewrite is null");
        requireNonNull(snapshotRetention, "snapshotRetention is null");
        if (retainLast < 1) {
            throw new IllegalArgumentException("Cannot configure snapshot expiry: retain-last must be at least 1");
        }
        requireNonNull(orphans, "orphans is null");
    }

    /** The parameters every engine resolves a step's parameters with. */
    public OperationDefaults defaults() {
        return new OperationDefaults(snapshotRetention, retainLast, orphans);
    }
}
