package dev.cryo.bench.harness;

import dev.cryo.contracts.TableId;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The scheduled DAG on Trino (PROTOCOL.md, "What is compared"): the three statements an engineer
 * writes, over Trino JDBC, one after the other, on a session whose {@code target_max_file_size} is the
 * table's own {@code write.target-file-size-bytes} when it declares one: Trino's optimize does not read
 * that property (it writes files of up to 1 GB by default), while the native DAG's rewrite and Cryo's
 * Trino statement honour it, so without it the hand-run would do less work than the others and
 * leave files of another size. A statement counts as committed when the table's
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
        try {
            setTargetFileSize(client, id, table);
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot set Trino's target file size for " + id + ": " + e.getMessage(), e);
        }
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
     * Makes the client's session write files of the table's declared target size with Trino's optimize; nothing when
     * the table declares none (then Trino's default, as an engineer who set nothing gets).
     */
    public static void setTargetFileSize(TrinoClient client, TableId id, Table table) throws SQLException {
        Optional<String> bytes = Optional.ofNullable(table.properties().get(TableProperties.WRITE_TARGET_FILE_SIZE_BYTES));
        if (bytes.isPresent()) {
            client.execute("SET SESSION \"" + id.catalog() + "\".target_max_file_size = '"
                    + Long.parseLong(bytes.get()) + "B'");
        }
    }

    /** How the DAG is described in the report's notes. */
    public static String describe() {
        return "SET SESSION target_max_file_size to the table's write.target-file-size-bytes; "
                + String.join("; ", STATEMENTS).replace("%s", "t");
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
