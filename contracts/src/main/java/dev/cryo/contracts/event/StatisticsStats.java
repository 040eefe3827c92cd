package dev.cryo.contracts.event;

import java.util.List;

/**
 * Column statistics registered on the table.
 *
 * @param files statistics files, one per described snapshot
 * @param newestDescribedSnapshotId the newest snapshot that a statistics file describes (optional: none)
 * @param rowsChangedSinceNewest rows added plus rows removed by the snapshots after that one, from snapshot
 *                               summaries (optional: no statistics, or summaries missing)
 */
public record StatisticsStats(List<StatisticsFileInfo> files, Long newestDescribedSnapshotId, Long rowsChangedSinceNewest) {
    public static final StatisticsStats NONE = new StatisticsStats(List.of(), null, null);

    public StatisticsStats {
        files = Require.list(files, "files");
    }
}
