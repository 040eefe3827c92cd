package dev.cryo.scanner.iceberg;

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
import dev.cryo.iceberg.orphan.ReachableFiles;
import dev.cryo.scanner.domain.FileSizeRules;
import dev.cryo.scanner.domain.PartitionKey;
import dev.cryo.testsupport.Infrastructure;
import dev.cryo.testsupport.NeedsInfrastructure;
import dev.cryo.testsupport.S3MockServer;
import org.apache.iceberg.DataFile;
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

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A warehouse on {@code s3://} through Iceberg's S3FileIO, against a local S3-compatible server
 * (Adobe S3Mock): a real table written there scans exactly like one on disk, and the orphan
 * listing lists the bucket prefix.
 */
@NeedsInfrastructure(Infrastructure.Component.POSTGRESQL)
class S3WarehouseTest {

    @TempDir
    static Path root;
    static S3MockServer s3;
    static CatalogRegistry registry;
    static ExecutorService readers;

    @BeforeAll
    static void start() throws Exception {
        s3 = new S3MockServer(root);
        Map<String, String> properties = new HashMap<>(LocalCatalogs.jdbc(Infrastructure.jdbcUrl(), Infrastructure.dbUser(),
                Infrastructure.dbPassword(), "scanner_s3_test", root));
        properties.putAll(s3.warehouseProperties("wh"));
        registry = CatalogRegistry.create(Map.of("s3lake", properties));
        readers = Executors.newFixedThreadPool(2);
    }

    @AfterAll
    static void stop() throws Exception {
        readers.shutdownNow();
        registry.close();
        s3.close();
    }

    @Test
    void aTableOnS3ScansLikeOneOnDiskAndItsOrphansAreListed() throws IOException {
        Namespace namespace = Namespace.of("s3_" + UUID.randomUUID().toString().substring(0, 8));
        ((SupportsNamespaces) registry.catalog("s3lake")).createNamespace(namespace);
        Table table = registry.catalog("s3lake").createTable(TableIdentifier.of(namespace, "events"), SampleTables.EVENTS,
                PartitionSpec.builderFor(SampleTables.EVENTS).day("event_ts").build(),
                Map.of("format-version", "3", FileSizeRules.TARGET_FILE_SIZE, "8192"));
        TableWriter writer = new TableWriter(table);
        OffsetDateTime start = OffsetDateTime.of(2026, 11, 1, 0, 0, 0, 0, ZoneOffset.UTC);
        List<DataFile> files = writer.append(SampleTables.events(new Random(1), 0, 100, start, Duration.ofDays(2), 3, 20));
        writer.append(SampleTables.events(new Random(2), 500, 400, start, Duration.ofDays(2), 3, 20));
        writer.commitDeletes(writer.writePositionDeletes(files.get(0), 1, 2));
        table.refresh();
        TableId id = new TableId("s3lake", List.of(namespace.levels()), "events");

        TableScanned scanned = new MetadataScanner(ManifestCache.none(), readers, 2L * 1024 * 1024, Clock.systemUTC())
                .scan(id, registry.load(id), null);

        assertThat(table.location()).startsWith("s3://warehouse/wh/");
        Map<PartitionKey, PartitionStats> actual = new TreeMap<>();
        scanned.partitions().forEach(partition -> actual.put(new PartitionKey(partition.specId(), partition.values()), partition));
        assertThat(actual).isEqualTo(MetadataTables.expectedPartitions(table, FileSizeRules.termsOf(table.properties())));
        assertThat(scanned.totals().records()).isEqualTo(500);
        assertThat(scanned.totals().positionDeleteFiles()).isEqualTo(1);
        assertThat(scanned.totals().positionDeleteRecords()).isEqualTo(2);

        try (PositionOutputStream out = table.io().newOutputFile(table.location() + "/data/stray.parquet").create()) {
            out.write("stray".getBytes(StandardCharsets.UTF_8));
        }
        OrphanStats orphans = new OrphanLister(Clock.systemUTC(), LocationEquivalence.DEFAULT).list(table, Duration.ZERO, TableLocations.of(List.of(table)));
        assertThat(orphans.orphanFiles()).isEqualTo(1);
        assertThat(orphans.orphanBytes()).isEqualTo(5);
        // every referenced file but the Hadoop-catalog pointer (which a JDBC catalog never writes), plus the stray one
        long referenced = ReachableFiles.of(table, LocationEquivalence.DEFAULT).size() - 1;
        assertThat(orphans.listedFiles()).isEqualTo(referenced + 1);
    }
}
