package dev.cryo.executor.sql;

import dev.cryo.contracts.event.FileCounts;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.expressions.UnboundTerm;
import org.apache.iceberg.transforms.Transform;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an engine committed, read back from the table history: the snapshots after the one a
 * step began at, which of them are the engine's, their file counts from the snapshot summaries,
 * and the rows their rewrites touched.
 */
final class EngineCommits {

    /** Snapshot summary key under which Trino records the query that committed a snapshot. */
    static final String TRINO_QUERY_ID = "trino_query_id";
    /** Snapshot summary key under which Trino records the user of that query. */
    static final String TRINO_USER = "trino_user";

    private EngineCommits() {
    }

    /**
     * The snapshots of the current history committed after {@code startSnapshotId}, oldest first.
     * When the start is no longer in the history (expired meanwhile), every ancestor is returned.
     */
    static List<Snapshot> after(Table table, Long startSnapshotId) {
        List<Snapshot> newestFirst = new ArrayList<>();
        for (Snapshot snapshot = table.currentSnapshot(); snapshot != null;
             snapshot = snapshot.parentId() == null ? null : table.snapshot(snapshot.parentId())) {
            if (startSnapshotId != null && snapshot.snapshotId() == startSnapshotId) {
                break;
            }
            newestFirst.add(snapshot);
        }
        List<Snapshot> oldestFirst = new ArrayList<>(newestFirst.size());
        for (int i = newestFirst.size() - 1; i >= 0; i--) {
            oldestFirst.add(newestFirst.get(i));
        }
        return oldestFirst;
    }

    /**
     * Whether a snapshot is a maintenance rewrite made by the queries given: a {@code replace}
     * (rewrites of data, delete files or manifests), and, where the engine writes its query id
     * into the summary (Trino does, for rewrites), one of these queries. Writers append, overwrite
     * or delete; they never replace.
     */
    static boolean isRewriteBy(Snapshot snapshot, Collection<String> queryIds) {
        if (!"replace".equals(snapshot.operation())) {
            return false;
        }
        String queryId = summary(snapshot).get(TRINO_QUERY_ID);
        return queryId == null || queryIds.contains(queryId);
    }

    /** Files the commits removed, from their summaries: data files, their bytes, delete files and records. */
    static FileCounts removed(List<Snapshot> commits) {
        return sum(commits, SnapshotSummary.DELETED_FILES_PROP, SnapshotSummary.REMOVED_FILE_SIZE_PROP,
                SnapshotSummary.REMOVED_DELETE_FILES_PROP, SnapshotSummary.DELETED_RECORDS_PROP);
    }

    /** Files the commits added, from their summaries. */
    static FileCounts added(List<Snapshot> commits) {
        return sum(commits, SnapshotSummary.ADDED_FILES_PROP, SnapshotSummary.ADDED_FILE_SIZE_PROP,
                SnapshotSummary.ADDED_DELETE_FILES_PROP, SnapshotSummary.ADDED_RECORDS_PROP);
    }

    private static FileCounts sum(List<Snapshot> commits, String filesKey, String bytesKey, String deletesKey,
                                  String recordsKey) {
        long files = 0;
        long bytes = 0;
        long deletes = 0;
        long records = 0;
        for (Snapshot commit : commits) {
            Map<String, String> summary = summary(commit);
            files += number(summary, filesKey);
            bytes += number(summary, bytesKey);
            deletes += number(summary, deletesKey);
            records += number(summary, recordsKey);
        }
        return new FileCounts(files, bytes, deletes, records);
    }

    /**
     * The rows of every partition in which the commits removed a data or delete file: a rewrite
     * must leave exactly these rows. Engines may rewrite more than the chunk asked for (Spark
     * selects by rows, and takes in files of an older spec), so the check follows the files they
     * actually replaced, not the plan.
     */
    static Expression rowsTouched(Table table, List<Snapshot> commits) {
        Map<String, Expression> partitions = new LinkedHashMap<>();
        for (Snapshot commit : commits) {
            for (ContentFile<?> file : commit.removedDataFiles(table.io())) {
                partitions.putIfAbsent(file.specId() + "/" + file.partition(), rowsOf(table, file));
            }
            for (ContentFile<?> file : commit.removedDeleteFiles(table.io())) {
                partitions.putIfAbsent(file.specId() + "/" + file.partition(), rowsOf(table, file));
            }
        }
        Expression rows = Expressions.alwaysFalse();
        for (Expression partition : partitions.values()) {
            rows = Expressions.or(rows, partition);
        }
        return rows;
    }

    /** The rows of one file's partition, as a row filter over the source columns. */
    static Expression rowsOf(Table table, ContentFile<?> file) {
        return rowsOf(table, file.specId(), file.partition());
    }

    /** The rows of one partition of a spec, as a row filter over the source columns. */
    static Expression rowsOf(Table table, int specId, StructLike partition) {
        PartitionSpec spec = table.specs().get(specId);
        Expression rows = Expressions.alwaysTrue();
        for (int i = 0; i < spec.fields().size(); i++) {
            PartitionField field = spec.fields().get(i);
            Transform<?, ?> transform = field.transform();
            String column = table.schema().findColumnName(field.sourceId());
            if (transform.isVoid()) {
                continue;
            }
            if (column == null) {
                // The column was dropped since: its partitions cannot be named, so check every row.
                return Expressions.alwaysTrue();
            }
            Object value = partition.get(i, Object.class);
            rows = Expressions.and(rows, value == null ? Expressions.isNull(term(column, transform))
                    : Expressions.equal(term(column, transform), value));
        }
        return rows;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static UnboundTerm<Object> term(String column, Transform<?, ?> transform) {
        return transform.isIdentity() ? Expressions.ref(column) : (UnboundTerm) Expressions.transform(column, transform);
    }

    static Map<String, String> summary(Snapshot snapshot) {
        return snapshot.summary() == null ? Map.of() : snapshot.summary();
    }

    private static long number(Map<String, String> summary, String key) {
        String value = summary.get(key);
        if (value == null) {
            return 0;
        }
        return Long.parseLong(value.trim());
    }
}
