package dev.cryo.executor.iceberg;

import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.contracts.event.PartitionPredicate;
import dev.cryo.executor.engine.StepKey;
import dev.cryo.executor.engine.JobRecords;
import dev.cryo.executor.engine.StepRequest;
import dev.cryo.executor.engine.StepResult;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.iceberg.fingerprint.Fingerprint;
import dev.cryo.iceberg.fingerprint.Fingerprints;
import dev.cryo.iceberg.fixtures.LocalCatalogs;
import dev.cryo.iceberg.fixtures.SampleTables;
import dev.cryo.iceberg.fixtures.TableWriter;
import dev.cryo.testsupport.Infrastructure;
import dev.cryo.testsupport.NeedsInfrastructure;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A maintenance job of the native engine on a table of a real Hive Metastore (the one
 * {@code ./cryo infra up --with hms} starts): compaction of a merge-on-read table with position
 * deletes, snapshot expiry and orphan removal commit through the metastore's locks and
 * {@code metadata_location} swap, and every row stays as it was.
 */
@NeedsInfrastructure({Infrastructure.Component.HIVE_METASTORE})
class HiveMetastoreNativeJobTest {

    static final String CATALOG = "hms";

    @TempDir
    static Path warehouse;
    static CatalogRegistry registry;
    static NativeEngine engine;
    static Namespace namespace;

    @BeforeAll
    static void connect() {
        registry = CatalogRegistry.create(Map.of(CATALOG, LocalCatalogs.hive(Infrastructure.hiveMetastoreUri(), warehouse)));
        namespace = Namespace.of("maintenance_" + UUID.randomUUID().toString().substring(0, 8));
        ((SupportsNamespaces) registry.catalog(CATALOG)).createNamespace(namespace);
        engine = new NativeEngine(registry, TestTables.settings(), JobRecords.NONE, Clock.systemUTC());
    }

    /** The metastore outlives this test's warehouse: its entries go with it. */
    @AfterAll
    static void close() throws Exception {
        registry.catalog(CATALOG).listTables(namespace).forEach(table -> registry.catalog(CATALOG).dropTable(table, false));
        ((SupportsNamespaces) registry.catalog(CATALOG)).dropNamespace(namespace);
        registry.close();
    }

    @Test
    void aFragmentedMergeOnReadTableIsCompactedExpiredAndCleanedWithEveryRowKept() throws IOException {
        Table table = registry.catalog(CATALOG).createTable(TableIdentifier.of(namespace, "Fragmented_Events"),
                SampleTables.EVENTS, PartitionSpec.builderFor(SampleTables.EVENTS).day("event_ts").build(),
                Map.of(TableProperties.FORMAT_VERSION, "2", TableProperties.DELETE_MODE, "merge-on-read"));
        TableId id = new TableId(CATALOG, List.of(namespace.level(0)), "fragmented_events");
        TestTables.fill(table, 6, 30, 1, 91);
        List<DataFile> fragments = TestTables.dataFiles(table);
        TableWriter writer = new TableWriter(table);
        writer.commitDeletes(writer.writePositionDeletes(fragments.get(0), 0, 1), writer.writePositionDeletes(fragments.get(1), 2));
        table.refresh();
        Fingerprint rows = Fingerprints.ofTable(table);
        assertThat(fragments).hasSize(6);
        Path orphan = Path.of(URI.create(table.location())).resolve("data/failed-job-leftover.parquet");
        Files.createDirectories(orphan.getParent());
        Files.writeString(orphan, "left by a failed job");
        Files.setLastModifiedTime(orphan, FileTime.from(Instant.now().minus(Duration.ofDays(4))));

        StepResult optimized = run(id, table, StepKey.chunk(Operation.OPTIMIZE, 0),
                List.of(TestTables.predicateOf(table, fragments.get(0))), OperationParameters.NONE);
        assertThat(Fingerprints.ofTable(table)).isEqualTo(rows);
        assertThat(optimized.before().dataFiles()).isEqualTo(6);
        assertThat(TestTables.dataFiles(table)).hasSize(1);
        assertThat(TestTables.liveDeleteFiles(table)).isEmpty();

        run(id, table, StepKey.table(Operation.EXPIRE_SNAPSHOTS), List.of(), new OperationParameters(null, Duration.ZERO, 1, null));
        assertThat(table.snapshots()).hasSize(1);
        StepResult removed = run(id, table, StepKey.table(Operation.REMOVE_ORPHAN_FILES), List.of(), OperationParameters.NONE);

        assertThat(removed.files()).extracting(location -> Path.of(URI.create(location))).containsExactly(orphan);
        assertThat(orphan).doesNotExist();
        assertThat(Fingerprints.ofTable(table)).isEqualTo(rows);
        try (CatalogRegistry fresh = CatalogRegistry.create(Map.of(CATALOG, LocalCatalogs.hive(Infrastructure.hiveMetastoreUri(),
                warehouse)))) {
            Table reloaded = fresh.load(id);
            assertThat(((HasTableOperations) reloaded).operations().current().metadataFileLocation())
                    .as("the metastore points at the job's last commit")
                    .isEqualTo(((HasTableOperations) table).operations().current().metadataFileLocation());
            assertThat(Fingerprints.ofTable(reloaded)).isEqualTo(rows);
        }
    }

    private static StepResult run(TableId id, Table table, StepKey step, List<PartitionPredicate> partitions,
                                  OperationParameters parameters) {
        StepResult result = engine.run(new StepRequest(id, "job-" + UUID.randomUUID(), step, partitions, parameters));
        table.refresh();
        return result;
    }
}
