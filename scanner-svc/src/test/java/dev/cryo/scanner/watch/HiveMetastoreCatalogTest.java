package dev.cryo.scanner.watch;

import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.OrphanStats;
import dev.cryo.contracts.event.PartitionStats;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.iceberg.fixtures.LocalCatalogs;
import dev.cryo.iceberg.fixtures.SampleTables;
import dev.cryo.iceberg.fixtures.TableWriter;
import dev.cryo.iceberg.orphan.LocationEquivalence;
import dev.cryo.iceberg.orphan.TableLocations;
import dev.cryo.scanner.domain.FileSizeRules;
import dev.cryo.scanner.domain.PartitionKey;
import dev.cryo.scanner.iceberg.ManifestCache;
import dev.cryo.scanner.iceberg.MetadataScanner;
import dev.cryo.scanner.iceberg.OrphanLister;
import dev.cryo.scanner.iceberg.ScannerTestAccess;
import dev.cryo.testsupport.Infrastructure;
import dev.cryo.testsupport.NeedsInfrastructure;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.PositionOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The Hive Metastore catalog, proven against a real standalone Hive Metastore 4.0.1 (the one
 * {@code ./cryo infra up --with hms} starts) through Iceberg's HiveCatalog and the Hive 3.1 Thrift
 * client: the watcher sees a commit move the table's pointer, the scan equals the table's own
 * metadata tables, the orphan listing finds a stray file. Names are as the metastore spells them:
 * it keeps databases and tables in lower case, and it has one namespace level.
 */
@NeedsInfrastructure({Infrastructure.Component.HIVE_METASTORE})
class HiveMetastoreCatalogTest {

    static final OffsetDateTime START = OffsetDateTime.of(2026, 11, 1, 0, 0, 0, 0, ZoneOffset.UTC);
    static final String CATALOG = "hms";

    @TempDir
    static Path warehouse;
    static CatalogRegistry registry;
    static Map<String, String> properties;
    static ExecutorService readers;

    @BeforeAll
    static void connect() {
        properties = LocalCatalogs.hive(Infrastructure.hiveMetastoreUri(), warehouse);
        registry = CatalogRegistry.create(Map.of(CATALOG, properties));
        readers = Executors.newFixedThreadPool(2);
    }

    /** The metastore outlives this test's warehouse: its entries go with it. */
    @AfterAll
    static void close() throws Exception {
        readers.shutdownNow();
        HiveMetastoreTables.dropAll(registry.catalog(CATALOG), created);
        registry.close();
    }

    static final List<Namespace> created = new java.util.ArrayList<>();

    static Namespace namespace(String name) {
        Namespace namespace = Namespace.of(name);
        ((SupportsNamespaces) registry.catalog(CATALOG)).createNamespace(namespace);
        created.add(namespace);
        return namespace;
    }

    @Test
    void aTableCreatedThroughTheMetastoreIsWatchedScannedAndListedUnderTheNamesTheMetastoreGivesIt() throws Exception {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        Namespace asked = namespace("Sales_" + suffix);
        Table table = registry.catalog(CATALOG).createTable(TableIdentifier.of(asked, "Daily_Events"), SampleTables.EVENTS,
                PartitionSpec.builderFor(SampleTables.EVENTS).day("event_ts").bucket("id", 4).build(),
                Map.of("format-version", "2", FileSizeRules.TARGET_FILE_SIZE, "8192"));
        TableId id = new TableId(CATALOG, List.of("sales_" + suffix), "daily_events");
        PointerSource watcher = PointerSources.forCatalog(CATALOG, properties, registry);
        new TableWriter(table).append(SampleTables.events(new Random(1), 0, 200, START, Duration.ofDays(3), 3, 20));
        Map<TableId, String> before = watcher.pointers();

        new TableWriter(table).append(SampleTables.events(new Random(2), 1000, 300, START, Duration.ofDays(3), 3, 20));
        table.refresh();
        Map<TableId, String> after = watcher.pointers();

        assertThat(registry.listTables(CATALOG)).contains(id);
        assertThat(watcher.method()).isEqualTo("list and load every table");
        assertThat(before).containsKey(id);
        assertThat(after.get(id)).isNotEqualTo(before.get(id))
                .isEqualTo(((HasTableOperations) table).operations().current().metadataFileLocation());

        TableScanned scanned = new MetadataScanner(ManifestCache.none(), readers, 2L * 1024 * 1024, Clock.systemUTC())
                .scan(id, registry.load(id), null);
        Map<PartitionKey, PartitionStats> actual = new TreeMap<>();
        scanned.partitions().forEach(partition -> actual.put(new PartitionKey(partition.specId(), partition.values()), partition));
        assertThat(actual).isEqualTo(ScannerTestAccess.expectedPartitions(table, FileSizeRules.termsOf(table.properties())));
        assertThat(scanned.table()).isEqualTo(id);
        assertThat(scanned.totals().records()).isEqualTo(500);
        assertThat(scanned.snapshots().count()).isEqualTo(2);

        try (PositionOutputStream out = table.io().newOutputFile(table.location() + "/data/stray.parquet").create()) {
            out.write("stray".getBytes(StandardCharsets.UTF_8));
        }
        OrphanStats orphans = new OrphanLister(Clock.systemUTC(), LocationEquivalence.DEFAULT).list(registry.load(id), Duration.ZERO, TableLocations.read(registry));
        assertThat(orphans.orphanFiles()).isEqualTo(1);
        assertThat(orphans.orphanBytes()).isEqualTo(5);
    }

    @Test
    void aTableWhoseMetadataFileIsGoneIsLeftOutAndTheOtherTablesAreStillWatched() throws Exception {
        Namespace namespace = namespace("broken_" + UUID.randomUUID().toString().substring(0, 8));
        Table broken = registry.catalog(CATALOG).createTable(TableIdentifier.of(namespace, "broken"), SampleTables.EVENTS);
        Table healthy = registry.catalog(CATALOG).createTable(TableIdentifier.of(namespace, "healthy"), SampleTables.EVENTS);
        new TableWriter(healthy).append(SampleTables.events(new Random(3), 0, 50, START, Duration.ofDays(1), 1, 20));
        healthy.refresh();
        java.nio.file.Files.delete(Path.of(java.net.URI.create(
                ((HasTableOperations) broken).operations().current().metadataFileLocation())));
        PointerSource watcher = PointerSources.forCatalog(CATALOG, properties, registry);

        Map<TableId, String> pointers = watcher.pointers();

        assertThat(pointers).containsEntry(new TableId(CATALOG, List.of(namespace.level(0)), "healthy"),
                ((HasTableOperations) healthy).operations().current().metadataFileLocation());
        assertThat(pointers).doesNotContainKey(new TableId(CATALOG, List.of(namespace.level(0)), "broken"));
    }

    @Test
    void aNamespaceOfSeveralLevelsIsRefusedByTheMetastoreWithItsOwnReason() {
        Namespace nested = Namespace.of("finance", "eu");

        assertThatThrownBy(() -> ((SupportsNamespaces) registry.catalog(CATALOG)).createNamespace(nested))
                .hasMessageContaining("finance.eu");
    }
}
