package dev.cryo.enginesql.engines;

import dev.cryo.contracts.Check;
import dev.cryo.contracts.Engine;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.Chunk;
import dev.cryo.contracts.event.Estimate;
import dev.cryo.contracts.event.PartitionPredicate;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.contracts.event.PlannedOperation;
import dev.cryo.enginesql.Rendering;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.iceberg.fingerprint.Fingerprint;
import dev.cryo.iceberg.fingerprint.Fingerprints;
import dev.cryo.iceberg.fixtures.LocalCatalogs;
import dev.cryo.testsupport.Infrastructure;
import dev.cryo.testsupport.NeedsInfrastructure;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Trino's and Spark's Iceberg connectors on the same Hive Metastore as Cryo's services: a Trino or
 * Spark started while the local metastore runs ({@code ./cryo infra up --with hms --with trino
 * --with spark}) has the catalog {@code hms}, and Cryo's rendered optimize of a table created through
 * the metastore runs there, commits through the metastore and keeps every row.
 */
@Tag("engines")
@NeedsInfrastructure({Infrastructure.Component.HIVE_METASTORE})
class EnginesOnHiveMetastoreTest {

    static final String CATALOG = "hms";

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Engine.class, names = {"TRINO", "SPARK"})
    void cryosOptimizeOfAMetastoreTableRunsOnTheEngineAndKeepsEveryRow(Engine engine) throws Exception {
        RealEngines.requireRunning();
        Namespace namespace = Namespace.of("cryo_" + engine.id() + "_hms_" + UUID.randomUUID().toString().substring(0, 8));
        Path warehouse = Infrastructure.localWarehouse().resolveSibling("hms-warehouse");
        try (CatalogRegistry registry = CatalogRegistry.create(Map.of(CATALOG, LocalCatalogs.hive(Infrastructure.hiveMetastoreUri(),
                warehouse)))) {
            Catalog catalog = registry.catalog(CATALOG);
            ((SupportsNamespaces) catalog).createNamespace(namespace);
            TableIdentifier identifier = TableIdentifier.of(namespace, "events");
            try {
                Schema schema = FragmentedTables.schema("category");
                Table table = catalog.createTable(identifier, schema, PartitionSpec.builderFor(schema).day("event_ts").build(),
                        Map.of(TableProperties.FORMAT_VERSION, "2"));
                FragmentedTables.fragment(table, 4, 0);
                Fingerprint before = Fingerprints.ofTable(table);
                int filesBefore = FragmentedTables.dataFiles(table).size();
                long snapshotBefore = table.currentSnapshot().snapshotId();

                Map<String, PartitionPredicate> partitions = new LinkedHashMap<>();
                for (DataFile file : FragmentedTables.dataFiles(table)) {
                    partitions.putIfAbsent(FragmentedTables.key(table, file.specId(), file.partition()),
                            PlannedPartitions.of(table.specs().get(file.specId()), file.partition()));
                }
                Chunk whole = new Chunk(0, List.copyOf(partitions.values()), Estimate.ZERO);
                PlannedOperation optimize = new PlannedOperation(Operation.OPTIMIZE, List.of(Check.SMALL_FILES), List.of(whole),
                        new OperationParameters(128L * 1024 * 1024, null, null, null), Estimate.ZERO);
                Rendering rendering = RealEngines.renderer(engine).render(
                        new TableId(CATALOG, List.of(namespace.level(0)), "events"), optimize, whole);
                assertThat(rendering).isInstanceOf(Rendering.Statements.class);
                RealEngines.client(engine).execute("optimize-hms-" + UUID.randomUUID(),
                        ((Rendering.Statements) rendering).statements());

                Table after = catalog.loadTable(identifier);
                assertThat(after.currentSnapshot().snapshotId()).as("%s committed through the metastore", engine).isNotEqualTo(snapshotBefore);
                assertThat(FragmentedTables.dataFiles(after).size()).isLessThan(filesBefore);
                assertThat(Fingerprints.ofTable(after)).isEqualTo(before);
            } finally {
                catalog.dropTable(identifier, true);
                ((SupportsNamespaces) catalog).dropNamespace(namespace);
            }
        }
    }
}
