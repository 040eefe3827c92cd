package dev.cryo.scanner.watch;

import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.FileSizeTerms;
import dev.cryo.contracts.event.PartitionStats;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.iceberg.fixtures.LocalCatalogs;
import dev.cryo.iceberg.fixtures.SampleTables;
import dev.cryo.iceberg.fixtures.TableWriter;
import dev.cryo.scanner.domain.FileSizeRules;
import dev.cryo.scanner.domain.PartitionKey;
import dev.cryo.scanner.iceberg.ManifestCache;
import dev.cryo.scanner.iceberg.MetadataScanner;
import dev.cryo.scanner.iceberg.ScannerTestAccess;
import dev.cryo.testsupport.Infrastructure;
import dev.cryo.testsupport.NeedsInfrastructure;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.LocalRestCatalogServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The REST catalog, proven against a real REST catalog server: Iceberg's own (its open-api test
 * fixture) started in this JVM on a free port, backed by a JDBC catalog on the real PostgreSQL.
 * The scanner reaches it through the standard properties ({@code type=rest}, {@code uri}), scans
 * its tables exactly like a JDBC catalog's, and the watcher sees a commit move the pointer.
 */
@NeedsInfrastructure(Infrastructure.Component.POSTGRESQL)
class RestCatalogTest {

    static final OffsetDateTime START = OffsetDateTime.of(2026, 11, 1, 0, 0, 0, 0, ZoneOffset.UTC);

    @TempDir
    static Path warehouse;
    static LocalRestCatalogServer server;
    static CatalogRegistry registry;
    static ExecutorService readers;
    static Map<String, String> restProperties;
    static Map<String, String> backend;

    @BeforeAll
    static void startServer() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        backend = new HashMap<>(LocalCatalogs.jdbc(Infrastructure.jdbcUrl(), Infrastructure.dbUser(),
                Infrastructure.dbPassword(), "scanner_rest_backend_test", warehouse));
        backend.remove("type");
        backend.put("catalog-impl", "org.apache.iceberg.jdbc.JdbcCatalog");
        backend.put("catalog.name", "rest_backend_" + UUID.randomUUID().toString().substring(0, 8));
        backend.put("rest.port", String.valueOf(port));
        server = new LocalRestCatalogServer(backend);
        restProperties = Map.of("type", "rest", "uri", "http://127.0.0.1:" + port);
        registry = CatalogRegistry.create(Map.of("remote", restProperties));
        readers = Executors.newFixedThreadPool(2);
    }

    @AfterAll
    static void stopServer() throws Exception {
        readers.shutdownNow();
        registry.close();
        server.close();
    }

    @Test
    void aRestCatalogTableScansLikeAnyOtherAndTheWatcherSeesItsCommits() {
        Namespace namespace = Namespace.of("rest_" + UUID.randomUUID().toString().substring(0, 8));
        ((SupportsNamespaces) registry.catalog("remote")).createNamespace(namespace);
        Table table = registry.catalog("remote").createTable(TableIdentifier.of(namespace, "events"), SampleTables.EVENTS,
                PartitionSpec.builderFor(SampleTables.EVENTS).day("event_ts").bucket("id", 4).build(),
                Map.of("format-version", "2", FileSizeRules.TARGET_FILE_SIZE, "8192"));
        TableId id = new TableId("remote", java.util.List.of(namespace.levels()), "events");
        PointerSource watcher = PointerSources.forCatalog("remote", restProperties, registry);
        new TableWriter(table).append(SampleTables.events(new Random(1), 0, 200, START, Duration.ofDays(3), 3, 20));
        Map<TableId, String> before = watcher.pointers();

        new TableWriter(table).append(SampleTables.events(new Random(2), 1000, 300, START, Duration.ofDays(3), 3, 20));
        table.refresh();
        Map<TableId, String> after = watcher.pointers();

        assertThat(watcher.method()).isEqualTo("list and load every table");
        assertThat(after.get(id)).isNotEqualTo(before.get(id))
                .isEqualTo(((HasTableOperations) table).operations().current().metadataFileLocation());

        TableScanned scanned = new MetadataScanner(ManifestCache.none(), readers, 2L * 1024 * 1024, Clock.systemUTC())
                .scan(id, registry.load(id), null);
        FileSizeTerms terms = FileSizeRules.termsOf(table.properties());
        Map<PartitionKey, PartitionStats> expected = ScannerTestAccess.expectedPartitions(table, terms);
        Map<PartitionKey, PartitionStats> actual = new TreeMap<>();
        scanned.partitions().forEach(partition -> actual.put(new PartitionKey(partition.specId(), partition.values()), partition));
        assertThat(actual).isEqualTo(expected);
        assertThat(scanned.totals().records()).isEqualTo(500);
        assertThat(scanned.snapshotId()).isEqualTo(table.currentSnapshot().snapshotId());
        assertThat(scanned.snapshots().count()).isEqualTo(2);
    }

    /**
     * Names as the catalog spells them, through the REST listing and through the JDBC catalog behind
     * it (whose pointers the watcher reads in one query): a namespace of two levels with upper case
     * and a space, a table name with quotes; a table whose name holds a dot, which Cryo's ids cannot
     * carry, is left out and hides none of the others.
     */
    @Test
    void namesFlowAsTheCatalogSpellsThemAndATableCryoCannotNameHidesNoOther() {
        Namespace namespace = Namespace.of("Finance_" + UUID.randomUUID().toString().substring(0, 8), "EU West");
        SupportsNamespaces namespaces = (SupportsNamespaces) registry.catalog("remote");
        namespaces.createNamespace(Namespace.of(namespace.level(0)));
        namespaces.createNamespace(namespace);
        Table odd = registry.catalog("remote").createTable(TableIdentifier.of(namespace, "Daily \"Q4\" it's"), SampleTables.EVENTS);
        registry.catalog("remote").createTable(TableIdentifier.of(namespace, "v1.archive"), SampleTables.EVENTS);
        TableId id = new TableId("remote", java.util.List.of(namespace.levels()), "Daily \"Q4\" it's");
        String backendName = backend.get("catalog.name");
        TableId backendId = new TableId(backendName, id.namespace(), id.table());

        Map<TableId, String> rest = PointerSources.forCatalog("remote", restProperties, registry).pointers();
        Map<TableId, String> jdbc = PointerSources.forCatalog(backendName, backend, registry).pointers();

        String location = ((HasTableOperations) odd).operations().current().metadataFileLocation();
        assertThat(rest).containsEntry(id, location);
        assertThat(jdbc).containsEntry(backendId, location);
        assertThat(rest.keySet()).noneMatch(table -> table.table().contains("archive"));
        assertThat(jdbc.keySet()).noneMatch(table -> table.table().contains("archive"));
        assertThat(TableId.parse(id.toString())).isEqualTo(id);
    }
}
