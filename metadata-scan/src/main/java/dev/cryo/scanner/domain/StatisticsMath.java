package dev.cryo.scanner.domain;

import java.util.List;

/** How stale the newest statistics are, from snapshot summaries alone. */
public final class StatisticsMath {

    /**
     * Rows added plus rows removed by the snapshots after {@code describedSnapshotId}, walking the
     * current snapshot's ancestry from newest to oldest. A rewrite ({@code replace}) counts nothing:
     * compaction reports every row it rewrote as added and deleted, yet the table holds the same rows
     * and its statistics still describe them; counting it would make every compaction stale the
     * statistics and plan a compute_statistics that wins nothing.
     *
     * @param ancestryNewestFirst the current snapshot, its parent, its grandparent, ...
     * @return the sum, or null when the described snapshot is not an ancestor of the current one
     *         or a snapshot on the way has no summary
     */
    public static Long rowsChangedSince(List<SnapshotChange> ancestryNewestFirst, long describedSnapshotId) {
        long changed = 0;
        for (SnapshotChange snapshot : ancestryNewestFirst) {
            if (snapshot.snapshotId() == describedSnapshotId) {
                return changed;
            }
            if (!snapshot.hasSummary()) {
                return null;
            }
            if (!snapshot.rewrite()) {
                changed += snapshot.addedRecords() + snapshot.deletedRecords();
            }
        }
        return null;
    }

    private StatisticsMath() {
    }
}
