package dev.cryo.bench.harness;

import dev.cryo.contracts.TableId;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The scheduled DAG on Trino (PROTOCOL.md, "What is compared"): the three statements an engineer
 * writes, over Trino JDBC, one after the other. A statement counts as committed when the table's
 * metadata shows its effect: a new {@code replace} snapshot (optimize, optimize_manifests) or an
 * expired snapshot (expire_snapshots); a statement that raised an error (a commit conflict with a
 * writer, …) is attempted and not committed.
 */
public final class TrinoDag {

    /** What an engineer runs on Trino; {@code %s} is the table. */
    public static final List<String> STATEMENTS = List.of("ALTER TABLE %s EXECUTE optimize",
            "ALTER TABLE %s EXECUTE optimize_manifests",
            "ALTER TABLE %s EXECUTE expire_snapshots(retention_threshold => '7d')");

    private final Lakehouse lakehouse;

    public TrinoDag(Lakehouse lakehouse) {
        this.lakehouse = lakehouse;
    }

    /** One DAG run over one table with the given connection (to the lakehouse's catalog). */
    public NativeDag.TableRun run(TrinoClient client, String namespace, String name) {
        TableId id = lakehouse.id(namespace, name);
        Table table = lakehouse.load(namespace, name, false);
        String sqlName = QueryMix.table(namespace, name);
        int committed = 0;
        int failed = 0;
        List<String> errors = new ArrayList<>();
        for (String statement : STATEMENTS) {
            table.refresh();
            Set<Long> before = snapshotIds(table);
            try {
                client.execute(statement.formatted(sqlName));
            } catch (SQLException e) {
                failed++;
                errors.add(statement.formatted("t") + ": " + e.getMessage());
                continue;
            }
            table.refresh();
            if (changed(table, before)) {
                committed++;
            }
        }
        return new NativeDag.TableRun(id, STATEMENTS.size(), committed, failed, errors);
    }

    /**
     * A new replace snapshot (a writer's commits are appends, overwrites or deletes), or a snapshot that was there
     * before and is gone (nothing but the expiry removes snapshots).
     */
    static boolean changed(Table table, Set<Long> before) {
        Set<Long> after = snapshotIds(table);
        for (Snapshot snapshot : table.snapshots()) {
            if (!before.contains(snapshot.snapshotId()) && "replace".equals(snapshot.operation())) {
                return true;
            }
        }
        return !after.containsAll(before);
    }

    static Set<Long> snapshotIds(Table table) {
        Set<Long> ids = new HashSet<>();
        table.snapshots().forEach(snapshot -> ids.add(snapshot.snapshotId()));
        return ids;
    }
}
