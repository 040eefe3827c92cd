package dev.cryo.scanner.iceberg;

import dev.cryo.contracts.event.FileSizeTerms;
import dev.cryo.contracts.event.PartitionStats;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.iceberg.fixtures.SampleTables;
import dev.cryo.iceberg.fixtures.TableWriter;
import dev.cryo.scanner.domain.FileSizeRules;
import dev.cryo.scanner.domain.PartitionKey;
import dev.cryo.testsupport.Infrastructure;
import dev.cryo.testsupport.NeedsInfrastructure;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.GenericBlobMetadata;
import org.apache.iceberg.GenericStatisticsFile;
import org.apache.iceberg.MetadataTableType;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.puffin.Blob;
import org.apache.iceberg.puffin.Puffin;
import org.apache.iceberg.puffin.PuffinWriter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scanner's counts equal what Iceberg's own metadata tables report for the same snapshot,
 * on real tables (real Parquet files, position deletes or deletion vectors, equality deletes)
 * with every common partition transform and an evolved spec, format v2 and v3.
 */
@NeedsInfrastructure(Infrastructure.Component.POSTGRESQL)
class MetadataScannerTest {

    static final OffsetDateTime START = OffsetDateTime.of(2026, 11, 1, 0, 0, 0, 0, ZoneOffset.UTC);
    /** A tiny target, so that files of a few hundred rows are small, normal or oversized. */
    static final Map<String, String> PROPERTIES = Map.of(FileSizeRules.TARGET_FILE_SIZE, "12288",
            "history.expire.max-snapshot-age-ms", "86400000", "cryo.small-files.critical", "0.6",
            "write.parquet.compression-codec", "uncompressed");

    @TempDir
    static Path warehouse;
    static TestTables tables;
    static ExecutorService readers;

    @BeforeAll
    static void createCatalog() {
        tables = new TestTables(warehouse);
        readers = Executors.newFixedThreadPool(2);
    }

    @AfterAll
    static void close() throws Exception {
        readers.shutdownNow();
        tables.close();
    }

    static Stream<Arguments> layouts() {
        return Stream.of(2, 3).flatMap(version -> Stream.of(
                Arguments.of("identity", version),
                Arguments.of("day", version),
                Arguments.of("hour", version),
                Arguments.of("bucket", version),
                Arguments.of("truncate", version),
                Arguments.of("evolved", version)));
    }

    @ParameterizedTest(name = "{0} v{1}")
    @MethodSource("layouts")
    void countsEqualIcebergMetadataTables(String layout, int formatVersion) {
        Table table = tables.create(layout + "_v" + formatVersion, formatVersion, spec(layout), PROPERTIES);
        TableWriter writer = new TableWriter(table);
        Random random = new Random(formatVersion * 31L + layout.hashCode());
        Duration spread = layout.equals("hour") || layout.equals("evolved") ? Duration.ofHours(5) : Duration.ofDays(3);
        List<DataFile> first = writer.append(SampleTables.events(random, 0, 16, START, spread, 4, 10));
        writer.append(SampleTables.events(random, 1000, 1000, START, spread, 4, 30));
        if (layout.equals("evolved")) {
            table.updateSpec().removeField("event_ts_day").addField(org.apache.iceberg.expressions.Expressions.hour("event_ts"))
                    .addField("category").commit();
            table.refresh();
        }
        List<Record> third = SampleTables.events(random, 5000, 4000, START.plusDays(1), spread, 4, 40);
        List<DataFile> thirdFiles = writer.append(third);

        writer.commitDeletes(writer.writePositionDeletes(first.get(0), 0, 1));
        Record key = GenericRecord.create(SampleTables.EVENTS.select("id"));
        key.setField("id", third.get(5).getField("id"));
        table.refresh();
        DeleteFile equalityDeletes = writer.writeEqualityDeletes(thirdFiles.stream()
                .filter(file -> file.specId() == table.spec().specId()).findFirst().orElseThrow().partition(),
                List.of(key), "id");
        writer.commitDeletes(equalityDeletes);
        table.refresh();

        TableScanned scanned = scanner(ManifestCache.none()).scan(tables.id(table), table, null);

        FileSizeTerms terms = FileSizeRules.termsOf(table.properties());
        Map<PartitionKey, PartitionStats> expected = MetadataTables.expectedPartitions(table, terms);
        assertThat(byKey(scanned.partitions())).isEqualTo(expected);
        assertThat(scanned.totals().partitions()).isEqualTo(expected.size());
        assertThat(scanned.totals().dataFiles()).isEqualTo(sum(expected, PartitionStats::dataFiles));
        assertThat(scanned.totals().dataBytes()).isEqualTo(sum(expected, PartitionStats::dataBytes));
        assertThat(scanned.totals().records()).isEqualTo(sum(expected, PartitionStats::records));
        assertThat(scanned.totals().smallFiles()).isEqualTo(sum(expected, PartitionStats::smallFiles)).isPositive();
        assertThat(scanned.totals().oversizedFiles()).isEqualTo(sum(expected, PartitionStats::oversizedFiles)).isPositive();
        assertThat(scanned.totals().positionDeleteFiles()).isEqualTo(1);
        assertThat(scanned.totals().positionDeleteRecords()).isEqualTo(2);
        assertThat(scanned.totals().equalityDeleteFiles()).isEqualTo(1);
        assertThat(scanned.totals().equalityDeleteRecords()).isEqualTo(1);
        List<Map<String, Object>> files = MetadataTables.rows(table, MetadataTableType.FILES);
        assertThat(scanned.totals().dataFiles()).isEqualTo(files.stream().filter(row -> (Integer) row.get("content") == 0).count());

        List<Map<String, Object>> manifests = MetadataTables.rows(table, MetadataTableType.MANIFESTS);
        assertThat(scanned.manifests().count()).isEqualTo(manifests.size());
        assertThat(scanned.manifests().bytes()).isEqualTo(manifests.stream().mapToLong(row -> (Long) row.get("length")).sum());
        assertThat(scanned.manifests().deleteManifests())
                .isEqualTo(manifests.stream().filter(row -> (Integer) row.get("content") == 1).count());
        assertThat(scanned.manifests().partitionSpanShare()).isBetween(0.0, 1.0);

        List<Map<String, Object>> snapshots = MetadataTables.rows(table, MetadataTableType.SNAPSHOTS);
        assertThat(scanned.snapshots().count()).isEqualTo(snapshots.size()).isEqualTo(5);
        long oldestMicros = snapshots.stream().mapToLong(row -> (Long) row.get("committed_at")).min().orElseThrow();
        assertThat(scanned.snapshots().oldestAt()).isEqualTo(Instant.ofEpochMilli(oldestMicros / 1000));
        assertThat(scanned.snapshots().branches()).isEqualTo(1);

        assertThat(scanned.snapshotId()).isEqualTo(table.currentSnapshot().snapshotId());
        assertThat(scanned.sequenceNumber()).isEqualTo(table.currentSnapshot().sequenceNumber());
        assertThat(scanned.formatVersion()).isEqualTo(formatVersion);
        assertThat(scanned.fileSizes()).isEqualTo(new FileSizeTerms(12288, 3072, 24576));
        assertThat(scanned.properties()).containsOnlyKeys(FileSizeRules.TARGET_FILE_SIZE,
                "history.expire.max-snapshot-age-ms", "cryo.small-files.critical");
        assertThat(scanned.specs()).extracting(spec -> spec.specId())
                .containsExactlyElementsOf(expected.keySet().stream().map(PartitionKey::specId).distinct().sorted().toList());
        assertThat(scanned.partitions()).allSatisfy(partition ->
                assertThat(MetadataTables.histogramTotal(partition.sizeHistogram())).isEqualTo(partition.dataFiles()));
    }

    @Test
    void specsDescribeTransformsAndSourceColumnsAsIcebergPrintsThem() {
        PartitionSpec spec = PartitionSpec.builderFor(SampleTables.EVENTS).day("event_ts").bucket("id", 16)
                .truncate("category", 2).identity("quantity").build();
        Table table = tables.create("spec_info", 2, spec, PROPERTIES);
        new TableWriter(table).append(SampleTables.events(new Random(1), 0, 20, START, Duration.ofDays(1), 2, 10));
        table.refresh();

        TableScanned scanned = scanner(ManifestCache.none()).scan(tables.id(table), table, null);

        assertThat(scanned.specs()).hasSize(1);
        assertThat(scanned.specs().get(0).fields()).extracting(field -> field.name() + " " + field.sourceColumn() + " "
                        + field.sourceId() + " " + field.sourceType() + " " + field.transform())
                .containsExactly("event_ts_day event_ts 2 timestamptz day", "id_bucket id 1 long bucket[16]",
                        "category_trunc category 3 string truncate[2]", "quantity quantity 6 int identity");
        PartitionStats first = scanned.partitions().get(0);
        assertThat(first.values().get(0)).isEqualTo(String.valueOf(START.toLocalDate().toEpochDay()));
    }

    @Test
    void manifestsThatEachHoldOneDaySpanOneShareOfThePartitions() {
        Table table = tables.create("clustered", 2, PartitionSpec.builderFor(SampleTables.EVENTS).day("event_ts").build(),
                PROPERTIES);
        TableWriter writer = new TableWriter(table);
        for (int day = 0; day < 4; day++) {
            writer.append(SampleTables.events(new Random(day), day * 100L, 10, START.plusDays(day), Duration.ofHours(1), 2, 10));
        }
        table.refresh();
        assertThat(scanner(ManifestCache.none()).scan(tables.id(table), table, null).manifests().partitionSpanShare())
                .isEqualTo(0.25);

        // one more commit that touches every day: its manifest spans all four
        writer.append(SampleTables.events(new Random(9), 900, 40, START, Duration.ofDays(4), 2, 10));
        table.refresh();
        assertThat(scanner(ManifestCache.none()).scan(tables.id(table), table, null).manifests().partitionSpanShare())
                .isEqualTo((4 * 0.25 + 1.0) / 5);
    }

    @Test
    void anUnpartitionedTableHasNoPartitionSpanAndOnePartition() {
        Table table = tables.create("flat", 3, PartitionSpec.unpartitioned(), PROPERTIES);
        new TableWriter(table).append(SampleTables.events(new Random(2), 0, 30, START, Duration.ofDays(1), 2, 10));
        table.refresh();

        TableScanned scanned = scanner(ManifestCache.none()).scan(tables.id(table), table, null);

        assertThat(scanned.manifests().partitionSpanShare()).isNull();
        assertThat(scanned.partitions()).singleElement().satisfies(partition -> {
            assertThat(partition.values()).isEmpty();
            assertThat(partition.dataFiles()).isEqualTo(1);
            assertThat(partition.records()).isEqualTo(30);
        });
    }

    @Test
    void anEmptyTableScansWithoutSnapshot() {
        Table table = tables.create("empty", 2, PartitionSpec.unpartitioned(), Map.of());

        TableScanned scanned = scanner(ManifestCache.none()).scan(tables.id(table), table, null);

        assertThat(scanned.snapshotId()).isNull();
        assertThat(scanned.partitions()).isEmpty();
        assertThat(scanned.snapshots().count()).isZero();
        assertThat(scanned.fileSizes().targetFileSizeBytes()).isEqualTo(FileSizeTerms.ICEBERG_DEFAULT_TARGET_BYTES);
    }

    @Test
    void statisticsFilesAndTheRowsChangedSinceTheNewestAreReported() throws Exception {
        Table table = tables.create("stats", 2, PartitionSpec.unpartitioned(), PROPERTIES);
        TableWriter writer = new TableWriter(table);
        writer.append(SampleTables.events(new Random(3), 0, 50, START, Duration.ofDays(1), 2, 10));
        table.refresh();
        long described = table.currentSnapshot().snapshotId();
        OutputFile output = table.io().newOutputFile(table.location() + "/metadata/stats-" + described + ".puffin");
        PuffinWriter puffin = Puffin.write(output).build();
        try (puffin) {
            puffin.add(new Blob("apache-datasketches-theta-v1", List.of(1), described, 1, ByteBuffer.wrap(new byte[16])));
        }
        table.updateStatistics().setStatistics(new GenericStatisticsFile(described, output.location(), puffin.fileSize(),
                puffin.footerSize(), puffin.writtenBlobsMetadata().stream().map(GenericBlobMetadata::from).toList())).commit();
        writer.append(SampleTables.events(new Random(4), 100, 20, START, Duration.ofDays(1), 2, 10));
        writer.append(SampleTables.events(new Random(5), 200, 7, START, Duration.ofDays(1), 2, 10));
        table.refresh();
        // a compaction of the 27 new rows into one file: a replace snapshot that changes no row
        List<DataFile> appended = new ArrayList<>();
        table.currentSnapshot().addedDataFiles(table.io()).forEach(appended::add);
        table.snapshot(table.currentSnapshot().parentId()).addedDataFiles(table.io()).forEach(appended::add);
        List<Record> rows = new ArrayList<>(SampleTables.events(new Random(4), 100, 20, START, Duration.ofDays(1), 2, 10));
        rows.addAll(SampleTables.events(new Random(5), 200, 7, START, Duration.ofDays(1), 2, 10));
        List<DataFile> compacted = writer.writeDataFiles(rows);
        table.newRewrite().rewriteFiles(Set.copyOf(appended), Set.copyOf(compacted)).commit();
        table.refresh();
        assertThat(table.currentSnapshot().operation()).isEqualTo(DataOperations.REPLACE);

        TableScanned scanned = scanner(ManifestCache.none()).scan(tables.id(table), table, null);

        assertThat(scanned.statistics().files()).singleElement().satisfies(file -> {
            assertThat(file.snapshotId()).isEqualTo(described);
            assertThat(file.path()).isEqualTo(output.location());
            assertThat(file.sizeBytes()).isEqualTo(puffin.fileSize());
        });
        assertThat(scanned.statistics().newestDescribedSnapshotId()).isEqualTo(described);
        assertThat(scanned.statistics().rowsChangedSinceNewest()).isEqualTo(27);
    }

    @Test
    void aSmallFileThresholdTablePropertyOverridesTheDefault() {
        Map<String, String> properties = new java.util.HashMap<>(PROPERTIES);
        properties.put(FileSizeRules.SMALL_FILE_THRESHOLD, "1");
        Table table = tables.create("threshold", 2, PartitionSpec.unpartitioned(), properties);
        new TableWriter(table).append(SampleTables.events(new Random(2), 0, 5, START, Duration.ofDays(1), 2, 10));
        table.refresh();

        TableScanned scanned = scanner(ManifestCache.none()).scan(tables.id(table), table, null);

        assertThat(scanned.fileSizes().smallFileThresholdBytes()).isEqualTo(1);
        assertThat(scanned.totals().smallFiles()).isZero();
        assertThat(scanned.properties()).containsEntry(FileSizeRules.SMALL_FILE_THRESHOLD, "1");
    }

    static MetadataScanner scanner(ManifestCache cache) {
        return new MetadataScanner(cache, readers, 2L * 1024 * 1024, Clock.systemUTC());
    }

    static PartitionSpec spec(String layout) {
        PartitionSpec.Builder builder = PartitionSpec.builderFor(SampleTables.EVENTS);
        return switch (layout) {
            case "identity" -> builder.identity("category").build();
            case "day", "evolved" -> builder.day("event_ts").build();
            case "hour" -> builder.hour("event_ts").build();
            case "bucket" -> builder.bucket("id", 4).build();
            case "truncate" -> builder.truncate("id", 2000).truncate("category", 1).build();
            default -> throw new IllegalArgumentException(layout);
        };
    }

    private static Map<PartitionKey, PartitionStats> byKey(List<PartitionStats> partitions) {
        Map<PartitionKey, PartitionStats> byKey = new TreeMap<>();
        partitions.forEach(partition -> byKey.put(new PartitionKey(partition.specId(), partition.values()), partition));
        return byKey;
    }

    private static long sum(Map<PartitionKey, PartitionStats> partitions,
                            java.util.function.ToLongFunction<PartitionStats> field) {
        return partitions.values().stream().mapToLong(field).sum();
    }
}
