package dev.cryo.executor.iceberg;

import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;

import java.util.List;
import java.util.Map;

/**
 * What one rewrite of a chunk replaces: the data files chosen at the start snapshot, with the
 * deletes that applied to them then, all together and by the index of their partition in the scope.
 */
record RewritePlan(Snapshot start, PartitionScope scope, List<FileScanTask> replaced,
                   Map<Integer, List<FileScanTask>> replacedByPartition) {
}
