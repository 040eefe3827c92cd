package dev.cryo.bench.harness;

import dev.cryo.contracts.TableId;
import dev.cryo.enginesql.spark.SparkConnectClient;
import org.apache.iceberg.Table;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The scheduled DAG on Spark as teams build it for a CDC table (PROTOCOL.md, scenario 3): a whole-table
 * {@code rewrite_data_files} in one commit (partial progress off) that also rewrites every file with a delete
 * ({@code delete-file-threshold 1}, else the MERGEs' deletes would stay forever), then {@code rewrite_manifests}
 * and {@code expire_snapshots}, over Spark Connect. A statement is committed when the table's metadata shows its
 * effect (as {@link TrinoDag} judges it); one that raised an error (a conflict with the writer) is attempted only.
 */
public final class SparkDag implements AutoCloseable {

    private final Lakehouse lakehouse;
    private final SparkConnectClient client;

    public SparkDag(Lakehouse lakehouse) {
        this.lakehouse = lakehouse;
        String port = System.getenv().getOrDefault("CRYO_SPARK_PORT", "15002");
        this.client = new SparkConnectClient(new SparkConnectClient.Settings("sc://127.0.0.1:" + port, "cryo-bench",
                Duration.ofHours(1)));
    }

    /** What the DAG runs; {@code %1$s} is the catalog, {@code %2$s} the quoted table, {@code %3$d} the target. */
    public static final List<String> STATEMENTS = List.of(
            "CALL %1$s.system.rewrite_data_files(table => '%2$s', options => map('partial-progress.enabled', 'false', "
                    + "'delete-file-threshold', '1', 'target-file-size-bytes', '%3$d'))",
            "CALL %1$s.system.rewrite_manifests(table => '%2$s')",
            "CALL %1$s.system.expire_snapshots(table => '%2$s', retain_last => 1)");

    /** One cycle over the table. */
    public NativeDag.TableRun run(String namespace, String name, long targetFileSizeBytes) {
        TableId id = lakehouse.id(namespace, name);
        Table table = lakehouse.load(namespace, name, false);
        String quoted = "`" + namespace + "`.`" + name + "`";
        int committed = 0;
        int failed = 0;
        List<String> errors = new ArrayList<>();
        for (String statement : STATEMENTS) {
            String sql = statement.formatted(lakehouse.catalogName(), quoted, targetFileSizeBytes);
            table.refresh();
            Set<Long> before = TrinoDag.snapshotIds(table);
            try {
                client.execute("cryo-bench-dag", List.of(sql));
            } catch (RuntimeException e) {
                failed++;
                errors.add(sql.substring(0, sql.indexOf('(')) + ": " + firstLine(e.getMessage()));
                continue;
            }
            table.refresh();
            if (TrinoDag.changed(table, before)) {
                committed++;
            }
        }
        return new NativeDag.TableRun(id, STATEMENTS.size(), committed, failed, errors);
    }

    @Override
    public void close() {
        client.close();
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "(no message)";
        }
        int end = message.indexOf('\n');
        return end < 0 ? message : message.substring(0, end);
    }
}
