package dev.cryo.executor.sql;

import dev.cryo.executor.ExecutorErrorCode;
import dev.cryo.executor.engine.EngineStepException;
import dev.cryo.iceberg.fingerprint.Fingerprint;
import dev.cryo.iceberg.fingerprint.Fingerprints;
import io.quarkus.logging.Log;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.util.PartitionMap;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Equality delete files that an engine's rewrite left behind although they apply to no live data
 * file any more, dropped in one metadata-only commit of Cryo's.
 *
 * <p>Why: Trino 476's {@code optimize} with a partition filter applies the equality deletes of the
 * files it rewrites but keeps the delete files (trinodb/trino#28371); Spark's rewrite with
 * {@code use-starting-sequence-number} leaves them too. The table then keeps counting them, the
 * equality-delete check keeps its deduction, and every reader keeps loading them.
 *
 * <p>The rule is Iceberg's own for when an equality delete applies: to data files of its spec and
 * partition whose data sequence number is lower than its own. A delete file of a partition the
 * rewrite touched is dropped only when every live data file of that spec and partition has a data
 * sequence number at least its own (or none is left). Global equality deletes (of an unpartitioned
 * spec in a table that has had another spec: they apply to every spec's files) are never dropped. The rows of the partitions are fingerprinted
 * before and after the commit; a difference fails the step and names the snapshot to roll back to.
 */
final class DanglingEqualityDeletes {

    /** What the commit dropped. */
    record Dropped(long snapshotId, List<DeleteFile> files, Fingerprint rows) {
    }

    private DanglingEqualityDeletes() {
    }

    /**
     * Drops the equality delete files of the partitions in which {@code commits} replaced data
     * files that apply to no live data file at the table's current snapshot; empty when there are none.
     */
    static Optional<Dropped> drop(Table table, List<Snapshot> commits, Map<String, String> tags, String queryIds) {
        table.refresh();
        Snapshot current = table.currentSnapshot();
        if (current == null || commits.isEmpty()) {
            return Optional.empty();
        }
        PartitionMap<Boolean> touched = PartitionMap.create(table.specs());
        for (Snapshot commit : commits) {
            for (ContentFile<?> file : commit.removedDataFiles(table.io())) {
                touched.put(file.specId(), file.partition(), Boolean.TRUE);
            }
        }
        if (touched.isEmpty()) {
            return Optional.empty();
        }
        List<DeleteFile> dangling = dangling(table, current, touched);
        if (dangling.isEmpty()) {
            return Optional.empty();
        }
        Expression rows = Expressions.alwaysFalse();
        for (DeleteFile file : dangling) {
            rows = Expressions.or(rows, EngineCommits.rowsOf(table, file));
        }
        Fingerprint before = Fingerprints.of(table, current.snapshotId(), rows);
        RewriteFiles rewrite = table.newRewrite().validateFromSnapshot(current.snapshotId());
        dangling.forEach(rewrite::deleteFile);
        tags.forEach(rewrite::set);
        rewrite.commit();
        table.refresh();
        long committed = committedSnapshot(table, current, tags);
        Fingerprint after = Fingerprints.of(table, committed, rows);
        if (!before.equals(after)) {
            String message = "Cannot accept dropping " + dangling.size() + " equality delete files of " + table.name()
                    + " after the engine's rewrite (query " + queryIds + "): the rows of their partitions differ between"
                    + " snapshot " + current.snapshotId() + " (" + before + ") and Cryo's commit " + committed + " (" + after
                    + "). Roll the table back to snapshot " + current.snapshotId() + " (rollback_to_snapshot)";
            Log.error(message);
            throw new EngineStepException(ExecutorErrorCode.FINGERPRINT_MISMATCH, message, queryIds, null);
        }
        return Optional.of(new Dropped(committed, List.copyOf(dangling), before));
    }

    /** The partitioned equality delete files of the touched partitions that no live data file is old enough for. */
    private static List<DeleteFile> dangling(Table table, Snapshot snapshot, PartitionMap<Boolean> touched) {
        // The lowest data sequence number of the live data files, per spec and partition.
        PartitionMap<Long> oldestData = PartitionMap.create(table.specs());
        Expression filter = Expressions.alwaysFalse();
        for (var partition : touched.keySet()) {
            filter = Expressions.or(filter, EngineCommits.rowsOf(table, partition.first(), partition.second()));
        }
        try (CloseableIterable<FileScanTask> tasks = table.newScan().useSnapshot(snapshot.snapshotId()).filter(filter)
                .ignoreResiduals().planFiles()) {
            for (FileScanTask task : tasks) {
                Long sequence = task.file().dataSequenceNumber();
                Long known = oldestData.get(task.file().specId(), task.file().partition());
                if (known == null || sequence == null || sequence < known) {
                    // An unknown sequence number (a v1 file) counts as the oldest possible.
                    oldestData.put(task.file().specId(), task.file().partition(), sequence == null ? Long.MIN_VALUE : sequence);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list the live data files of " + table.name() + ": " + e.getMessage(), e);
        }
        List<DeleteFile> dangling = new ArrayList<>();
        for (ManifestFile manifest : snapshot.deleteManifests(table.io())) {
            try (ManifestReader<DeleteFile> reader = ManifestFiles.readDeleteManifest(manifest, table.io(), table.specs())) {
                for (DeleteFile delete : reader) {
                    if (delete.content() != FileContent.EQUALITY_DELETES
                            || isGlobal(table, delete)
                            || !touched.containsKey(delete.specId(), delete.partition())
                            || delete.dataSequenceNumber() == null) {
                        continue;
                    }
                    Long oldest = oldestData.get(delete.specId(), delete.partition());
                    if (oldest == null || oldest >= delete.dataSequenceNumber()) {
                        dangling.add(delete.copyWithoutStats());
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot read the delete manifest " + manifest.path() + " of " + table.name()
                        + ": " + e.getMessage(), e);
            }
        }
        return dangling;
    }

    /**
     * Whether an equality delete may apply beyond its own spec: one of an unpartitioned spec applies
     * to the data files of every spec, so it is only judged here when the table has never had another.
     */
    private static boolean isGlobal(Table table, DeleteFile delete) {
        return table.specs().get(delete.specId()).isUnpartitioned() && table.specs().size() > 1;
    }

    private static long committedSnapshot(Table table, Snapshot parent, Map<String, String> tags) {
        for (Snapshot snapshot : EngineCommits.after(table, parent.snapshotId())) {
            Map<String, String> summary = EngineCommits.summary(snapshot);
            if (tags.entrySet().stream().allMatch(tag -> tag.getValue().equals(summary.get(tag.getKey())))) {
                return snapshot.snapshotId();
            }
        }
        throw new IllegalStateException("Cannot find the snapshot that dropped the equality delete files of "
                + table.name() + " with tags " + tags);
    }
}
