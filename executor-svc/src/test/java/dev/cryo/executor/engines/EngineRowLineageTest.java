package dev.cryo.executor.engines;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.contracts.event.PartitionPredicate;
import dev.cryo.enginesql.CapabilityMatrix;
import dev.cryo.enginesql.CatalogNames;
import dev.cryo.enginesql.EngineExecutionException;
import dev.cryo.enginesql.Rendering;
import dev.cryo.enginesql.SqlRenderer;
import dev.cryo.enginesql.spark.SparkConnectClient;
import dev.cryo.enginesql.spark.SparkRenderer;
import dev.cryo.enginesql.spark.SparkSettings;
import dev.cryo.enginesql.trino.TrinoClient;
import dev.cryo.enginesql.trino.TrinoRenderer;
import dev.cryo.enginesql.trino.TrinoSettings;
import dev.cryo.executor.ExecutorErrorCode;
import dev.cryo.executor.engine.StepKey;
import dev.cryo.executor.engine.JobRecords;
import dev.cryo.executor.engine.StepRequest;
import dev.cryo.executor.engine.StepResult;
import dev.cryo.executor.iceberg.OperationDefaults;
import dev.cryo.executor.iceberg.OrphanRemovalSettings;
import dev.cryo.executor.iceberg.TableLoader;
import dev.cryo.executor.iceberg.TestTables;
import dev.cryo.executor.sql.SqlEngine;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.iceberg.fingerprint.Fingerprints;
import dev.cryo.iceberg.fixtures.SampleTables;
import dev.cryo.iceberg.fixtures.TableWriter;
import dev.cryo.platform.error.CryoException;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Row lineage ({@code _row_id}, {@code _last_updated_sequence_number}) of format-v3 tables on real
 * Trino 476 and Spark 4.0.1 (Iceberg 1.10.1), and what Cryo routes where because of it. Spark's
 * rewrite_position_delete_files and rewrite_data_files keep every row's lineage, so they run on
 * Spark and the fingerprint, which covers lineage, holds. Trino refuses optimize on v3 tables and
 * Spark's rewrite_manifests gives rows new ids: Cryo refuses both before the engine is asked, and
 * the engines' own behaviour is asserted too, so that an engine upgrade that changes it fails here
 * and the limits in {@link CapabilityMatrix} are revisited. Trino's optimize_manifests keeps lineage
 * and stays on Trino.
 */
@Tag("engines")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EngineRowLineageTest {

    private static final String NAMESPACE = "cryo_lineage_" + UUID.randomUUID().toString().substring(0, 8);
    private static final String ROW_ID = MetadataColumns.ROW_ID.name();
    private static final String LAST_UPDATED = MetadataColumns.LAST_UPDATED_SEQUENCE_NUMBER.name();
    private static final CapabilityMatrix MATRIX = CapabilityMatrix.of(TrinoSettings.DEFAULT,
            SparkSettings.systemClock(CatalogNames.SAME));
    private static final SqlRenderer TRINO_SQL = new TrinoRenderer(TrinoSettings.DEFAULT);
    private static final SqlRenderer SPARK_SQL = new SparkRenderer(SparkSettings.systemClock(CatalogNames.SAME));

    private CatalogRegistry catalogs;
    private TrinoClient trino;
    private SparkConnectClient spark;

    @BeforeAll
    void connect() {
        EnginesProfile.requireEnginesRunning();
        catalogs = CatalogRegistry.create(Map.of(EnginesProfile.CATALOG, EnginesProfile.catalogProperties()));
        ((SupportsNamespaces) catalog()).createNamespace(Namespace.of(NAMESPACE));
        trino = new TrinoClient(new TrinoClient.Settings(EnginesProfile.TRINO_URL, "cryo", "cryo", null, Duration.ofMinutes(5)));
        spark = new SparkConnectClient(new SparkConnectClient.Settings(EnginesProfile.SPARK_REMOTE, "cryo", Duration.ofMinutes(5)));
    }

    @AfterAll
    void close() throws Exception {
        Catalog catalog = catalog();
        for (TableIdentifier table : catalog.listTables(Namespace.of(NAMESPACE))) {
            catalog.dropTable(table, true);
        }
        ((SupportsNamespaces) catalog).dropNamespace(Namespace.of(NAMESPACE));
        trino.close();
        spark.close();
        catalogs.close();
    }

    @Test
    void sparksRewritesKeepEveryRowsLineage() {
        Table table = tableWithLineage("spark_rewrites");
        Map<Long, Record> before = rowsById(table);
        int files = TestTables.dataFiles(table).size();
        SqlEngine sql = engine(Engine.SPARK);

        StepResult positionDeletes = sql.run(chunk(table, Operation.REWRITE_POSITION_DELETES));

        assertThat(positionDeletes.committedSnapshotId()).isNotNull();
        assertThat(positionDeletes.message()).contains("fingerprint of the rewritten partitions equal before and after");
        assertThat(rowsById(table)).isEqualTo(before);

        StepResult optimized = sql.run(chunk(table, Operation.OPTIMIZE));

        assertThat(optimized.before().dataFiles()).isEqualTo(files);
        assertThat(TestTables.dataFiles(table)).hasSize(1);
        assertThat(TestTables.deleteFiles(table)).isEmpty();
        assertThat(optimized.message()).contains("fingerprint of the rewritten partitions equal before and after: "
                + before.size() + " rows");
        assertThat(rowsById(table)).isEqualTo(before);
    }

    @Test
    void trinoIsNotAskedToOptimizeAFormatV3TableWhichItRefuses() {
        Table table = tableWithLineage("trino_optimize");
        long snapshot = table.currentSnapshot().snapshotId();
        StepRequest optimize = chunk(table, Operation.OPTIMIZE);

        assertThatThrownBy(() -> engine(Engine.TRINO).run(optimize))
                .isInstanceOfSatisfying(CryoException.class, e -> assertThat(e.code()).isEqualTo(ExecutorErrorCode.NOT_ROUTABLE))
                .hasMessage("Cannot run optimize:0 of " + optimize.table() + " (format version 3) on trino"
                        + " (FORMAT_VERSION_NOT_SUPPORTED): Trino 476 refuses optimize on tables of format version 3"
                        + " (\"OPTIMIZE is not supported for Iceberg table format version > 2\"); route it to another engine"
                        + " with cryo.executor.fallback-engines");

        // What Trino answers when it is asked all the same.
        List<String> statements = statements(TRINO_SQL, optimize);
        assertThatThrownBy(() -> trino.execute("lineage-" + UUID.randomUUID(), statements))
                .isInstanceOf(EngineExecutionException.class)
                .hasMessageContaining("OPTIMIZE is not supported for Iceberg table format version > 2. Table "
                        + NAMESPACE + ".trino_optimize format version is 3.");
        table.refresh();
        assertThat(table.currentSnapshot().snapshotId()).isEqualTo(snapshot);
    }

    @Test
    void trinosManifestRewriteKeepsEveryRowsLineage() {
        Table table = tableWithLineage("trino_manifests");
        Map<Long, Record> before = rowsById(table);
        int manifests = table.currentSnapshot().dataManifests(table.io()).size();

        StepResult result = engine(Engine.TRINO).run(whole(table, Operation.OPTIMIZE_MANIFESTS));

        assertThat(result.message()).contains("data manifests " + manifests + " -> 1");
        assertThat(rowsById(table)).isEqualTo(before);
    }

    @Test
    void sparkIsNotAskedToRewriteTheManifestsOfAFormatV3TableBecauseItGivesRowsNewIds() {
        Table table = tableWithLineage("spark_manifests");
        Map<Long, Record> before = rowsById(table);
        StepRequest manifests = whole(table, Operation.OPTIMIZE_MANIFESTS);

        assertThatThrownBy(() -> engine(Engine.SPARK).run(manifests))
                .isInstanceOfSatisfying(CryoException.class, e -> assertThat(e.code()).isEqualTo(ExecutorErrorCode.NOT_ROUTABLE))
                .hasMessage("Cannot run optimize_manifests of " + manifests.table() + " (format version 3) on spark"
                        + " (LOSES_ROW_LINEAGE): Spark's rewrite_manifests (Iceberg 1.10.1) gives the rows of a format v3"
                        + " table new _row_id values: it drops the data files' first_row_id (apache/iceberg#16699); route"
                        + " it to another engine with cryo.executor.fallback-engines");
        assertThat(rowsById(table)).isEqualTo(before);

        // What Spark does when it is asked all the same: the same rows, every one with another _row_id.
        spark.execute("lineage-" + UUID.randomUUID(), statements(SPARK_SQL, manifests));

        Map<Long, Record> after = rowsById(table);
        assertThat(after.keySet()).isEqualTo(before.keySet());
        assertThat(after).allSatisfy((id, row) -> {
            assertThat(row.getField(ROW_ID)).as("row " + id).isNotNull().isNotEqualTo(before.get(id).getField(ROW_ID));
            assertThat(row.getField(LAST_UPDATED)).as("row " + id).isEqualTo(before.get(id).getField(LAST_UPDATED));
        });
    }

    // ------------------------------------------------------------------ helpers

    private Catalog catalog() {
        return catalogs.catalog(EnginesProfile.CATALOG);
    }

    /**
     * One day partition of small files with varied lineage: three appends and two position delete
     * files on one data file while the table is v2, the upgrade to v3, two more appends and a
     * deletion vector on one of their files.
     */
    private Table tableWithLineage(String name) {
        Table table = catalog().createTable(TableIdentifier.of(NAMESPACE, name), SampleTables.EVENTS,
                PartitionSpec.builderFor(SampleTables.EVENTS).day("event_ts").build(), Map.of(TableProperties.FORMAT_VERSION, "2"));
        TestTables.fill(table, 3, 20, 1, 96);
        DataFile v2File = TestTables.dataFiles(table).get(0);
        TableWriter writer = new TableWriter(table);
        writer.commitDeletes(writer.writePositionDeletes(v2File, 1, 2));
        writer.commitDeletes(writer.writePositionDeletes(v2File, 4));
        table.updateProperties().set(TableProperties.FORMAT_VERSION, "3").commit();
        TestTables.fill(table, 2, 20, 1, 97);
        DataFile v3File = TestTables.dataFiles(table).stream().filter(file -> file.dataSequenceNumber() > 4)
                .findFirst().orElseThrow();
        writer = new TableWriter(table);
        writer.commitDeletes(writer.writePositionDeletes(v3File, 0, 7));
        table.refresh();

        Map<Long, Record> rows = rowsById(table);
        assertThat(TestTables.dataFiles(table)).hasSize(5);
        assertThat(TestTables.deleteFiles(table)).hasSize(3).allMatch(file -> file.content() == FileContent.POSITION_DELETES);
        assertThat(rows).hasSize(95);
        assertThat(rows.values().stream().map(row -> row.getField(ROW_ID))).doesNotContainNull().doesNotHaveDuplicates();
        assertThat(rows.values().stream().map(row -> row.getField(LAST_UPDATED)).distinct()).hasSize(5);
        return table;
    }

    private SqlEngine engine(Engine engine) {
        OperationDefaults defaults = new OperationDefaults(Duration.ofDays(5), 1, OrphanRemovalSettings.DEFAULTS);
        TableLoader tables = new TableLoader(catalogs);
        if (engine == Engine.TRINO) {
            return new SqlEngine(TRINO_SQL, trino, MATRIX, tables, defaults, JobRecords.NONE, Clock.systemUTC(), "cryo");
        }
        return new SqlEngine(SPARK_SQL, spark, MATRIX, tables, defaults, JobRecords.NONE, Clock.systemUTC(), null);
    }

    /** The step for every partition of the table, as one chunk. */
    private static StepRequest chunk(Table table, Operation operation) {
        Map<String, PartitionPredicate> partitions = new LinkedHashMap<>();
        for (DataFile file : TestTables.dataFiles(table)) {
            partitions.putIfAbsent(file.partition().toString(), TestTables.predicateOf(table, file));
        }
        return new StepRequest(id(table), "job-" + UUID.randomUUID(), StepKey.chunk(operation, 0),
                List.copyOf(partitions.values()), OperationParameters.NONE);
    }

    private static StepRequest whole(Table table, Operation operation) {
        return new StepRequest(id(table), "job-" + UUID.randomUUID(), StepKey.table(operation), List.of(),
                OperationParameters.NONE);
    }

    private static TableId id(Table table) {
        return TableId.of(EnginesProfile.CATALOG, NAMESPACE, table.name().substring(table.name().lastIndexOf('.') + 1));
    }

    private static List<String> statements(SqlRenderer renderer, StepRequest request) {
        return ((Rendering.Statements) renderer.render(request.table(), request.plannedOperation(), request.chunk()))
                .statements();
    }

    /** Every live row by its id, with its lineage, read through Iceberg. */
    private static Map<Long, Record> rowsById(Table table) {
        table.refresh();
        Schema schema = Fingerprints.schemaOf(table);
        Map<Long, Record> rows = new HashMap<>();
        try (CloseableIterable<Record> read = IcebergGenerics.read(table).project(schema).build()) {
            for (Record row : read) {
                // Iceberg's reader appends _pos to the rows of files with deletes: keep the schema's columns only.
                Record copy = GenericRecord.create(schema);
                for (int i = 0; i < schema.columns().size(); i++) {
                    copy.set(i, row.get(i));
                }
                assertThat(rows.put((Long) copy.getField("id"), copy)).as("a second live row with id " + copy.getField("id"))
                        .isNull();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return rows;
    }
}
