package dev.cryo.contracts.event;

import java.time.Instant;

/**
 * The table's snapshot log.
 *
 * @param count snapshots in table metadata
 * @param oldestAt commit time of the oldest snapshot (optional: no snapshot)
 * @param newestAt commit time of the newest snapshot (optional: no snapshot)
 * @param branches named branches, main included
 * @param tags named tags
 */
public record SnapshotStats(int count, Instant oldestAt, Instant newestAt, int branches, int tags) {
    public static final SnapshotStats NONE = new SnapshotStats(0, null, null, 0, 0);

    public SnapshotStats {
        Require.nonNegative(count, "count");
        Require.nonNegative(branches, "branches");
        Require.nonNegative(tags, "tags");
    }
}
