package dev.cryo.bench.harness;

import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.util.PropertyUtil;

import java.util.Map;

/**
 * What a table's metadata says about its maintenance, the same way for both contenders:
 * data-file rewrites are {@code replace} snapshots that deleted data files; every other
 * {@code replace} is a manifest rewrite.
 *
 * @param dataFiles data files in the current snapshot
 * @param dataBytes their bytes
 * @param deleteFiles delete files in the current snapshot
 * @param rewrites data-file rewrite commits committed after {@code sinceMillis}
 * @param rewrittenPartitions the sum of their changed-partition-count
 * @param maintenanceCommits every replace commit after {@code sinceMillis} (rewrites and manifest rewrites)
 */
public record TableFacts(long dataFiles, long dataBytes, long deleteFiles, long rewrites, long rewrittenPartitions,
                         long maintenanceCommits) {

    public static TableFacts of(Table table, long sinceMillis) {
        table.refresh();
        Snapshot current = table.currentSnapshot();
        Map<String, String> summary = current == null ? Map.of() : current.summary();
        long rewrites = 0;
        long partitions = 0;
        long commits = 0;
        for (Snapshot snapshot : table.snapshots()) {
            if (snapshot.timestampMillis() < sinceMillis || !"replace".equals(snapshot.operation())) {
                continue;
            }
            commits++;
            if (PropertyUtil.propertyAsLong(snapshot.summary(), "deleted-data-files", 0) > 0) {
                rewrites++;
                partitions += PropertyUtil.propertyAsLong(snapshot.summary(), "changed-partition-count", 0);
            }
        }
        return new TableFacts(PropertyUtil.propertyAsLong(summary, "total-data-files", 0),
                PropertyUtil.propertyAsLong(summary, "total-files-size", 0),
                PropertyUtil.propertyAsLong(summary, "total-delete-files", 0), rewrites, partitions, commits);
    }
}
