package dev.cryo.demo.fleet;

import dev.cryo.demo.TestCatalogs;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.testsupport.Infrastructure.Component;
import dev.cryo.testsupport.NeedsInfrastructure;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Builds the whole fleet once in a real JDBC catalog and checks, table by table, the metadata
 * that makes the scorer find what each table's story promises (the thresholds are SCORING.md's).
 */
@NeedsInfrastructure(Component.POSTGRESQL)
class FleetTest {

    @TempDir
    static Path warehouse;

    static CatalogRegistry registry;
    static Catalog catalog;
    static Namespace namespace;
    static List<FleetBuilder.Built> firstBuild;
    static String firstOutput;
    static Instant builtAt;

    @BeforeAll
    static void buildTheFleet() {
        registry = TestCatalogs.create(warehouse);
        catalog = registry.catalog(TestCatalogs.CATALOG);
        namespace = Namespace.of(TestCatalogs.uniqueNamespace("fleet"));
        StringWriter output = new StringWriter();
        firstBuild = new FleetBuilder(catalog, TestCatalogs.CATALOG, namespace, Clock.systemUTC(), new PrintWriter(output), 2)
                .build(Fleet.tables());
        firstOutput = output.toString();
        builtAt = Instant.now();
    }

    @AfterAll
    static void dropTheFleet() throws Exception {
        Fleet.tables().forEach(table -> catalog.dropTable(TableIdentifier.of(namespace, table.name()), false));
        registry.close();
    }

    static TableFacts facts(String name) {
        return TableFacts.of(catalog.loadTable(TableIdentifier.of(namespace, name)));
    }

    @Test
    void theFleetHasThirteenTablesEachCompleteWithItsStory() {
        assertThat(firstBuild).hasSize(13).allMatch(built -> built.outcome() == FleetBuilder.Outcome.CREATED);
        for (DemoTable definition : Fleet.tables()) {
            Table table = catalog.loadTable(TableIdentifier.of(namespace, definition.name()));
            assertThat(table.properties()).containsEntry(Fleet.COMPLETE_PROPERTY, "true")
                    .containsEntry(Fleet.STORY_PROPERTY, definition.story());
            assertThat(firstOutput).contains(TestCatalogs.CATALOG + "." + namespace + "." + definition.name(), definition.story());
        }
        assertThat(Fleet.liveTables()).extracting(DemoTable::name).containsExactly("clickstream", "accounts_cdc", "ledger");
    }

    @Test
    void theWholeFleetStaysWellUnderOneGigabyte() throws Exception {
        long bytes;
        try (var files = Files.walk(warehouse)) {
            bytes = files.filter(Files::isRegularFile).mapToLong(path -> path.toFile().length()).sum();
        }
        assertThat(bytes).isBetween(50L * 1024 * 1024, 300L * 1024 * 1024);
    }

    @Test
    void healthyTablesHaveWellSizedFilesOnly() {
        for (String name : List.of("customers", "payments", "orders", "clickstream")) {
            TableFacts facts = facts(name);
            assertThat(facts.smallFiles()).as(name + " small files").isZero();
            assertThat(facts.oversizedFiles()).as(name + " oversized files").isZero();
            assertThat(facts.deleteFiles()).as(name + " delete files").isEmpty();
            assertThat(facts.snapshots().size()).as(name + " snapshots").isLessThan(100);
            assertThat(facts.oldestSnapshotAge(builtAt)).as(name + " oldest snapshot").isLessThan(Duration.ofDays(1));
        }
        assertThat(facts("orders").dataFiles()).hasSize(20);
        assertThat(facts("payments").filesPerPartition()).hasSize(12);
        assertThat(facts("clickstream").table().properties()).containsEntry("history.expire.max-snapshot-age-ms", "300000");
    }

    @Test
    void compactionLeavesTooFewSmallFilesForTheSmallFilesCheckInEveryFragmentedTable() {
        for (String name : List.of("page_views", "trips", "accounts_cdc", "clickstream", "dim_products")) {
            assertThat(facts(name).partitionsSmallAfterCompaction()).as(name).isLessThan(8);
        }
    }

    @Test
    void dimProductsHasJustEnoughSmallFilesForAWarning() {
        TableFacts facts = facts("dim_products");
        assertThat(facts.smallFiles()).isEqualTo(8);
        assertThat(facts.smallShare()).isBetween(0.20, 0.50);
    }

    @Test
    void pageViewsIsBadlyFragmented() {
        TableFacts facts = facts("page_views");
        assertThat(facts.dataFiles()).hasSize(315);
        assertThat(facts.smallShare()).isEqualTo(1.0);
        assertThat(facts.partitionSkew()).isGreaterThanOrEqualTo(10);
        assertThat(facts.snapshots()).hasSize(105);
        assertThat(facts.manifests()).isEqualTo(105);
        assertThat(facts.oldestSnapshotAge(builtAt)).isBetween(Duration.ofDays(19), Duration.ofDays(21));
    }

    @Test
    void accountsCdcCarriesEqualityAndPositionDeletes() {
        TableFacts facts = facts("accounts_cdc");
        assertThat(facts.equalityDeleteFiles()).isEqualTo(32);
        assertThat(facts.positionDeleteFiles()).isEqualTo(16);
        assertThat(facts.deleteRatio()).isBetween(0.10, 0.25);
        assertThat(facts.smallShare()).isGreaterThanOrEqualTo(0.5);
    }

    @Test
    void returnsHidesARowInThreeBehindDeletionVectors() {
        TableFacts facts = facts("returns");
        assertThat(org.apache.iceberg.TableUtil.formatVersion(facts.table())).isEqualTo(3);
        assertThat(facts.deletionVectors()).isEqualTo(6);
        assertThat(facts.deleteRatio()).isGreaterThanOrEqualTo(0.25);
    }

    @Test
    void tripsHasSmallFilesUnderBothPartitionSpecs() {
        TableFacts facts = facts("trips");
        assertThat(facts.table().specs()).hasSize(2);
        assertThat(facts.dataFiles().stream().filter(file -> file.fileSizeInBytes() < facts.targetFileBytes() / 4)
                .collect(Collectors.groupingBy(file -> file.specId(), Collectors.counting())))
                .containsEntry(0, 10L).containsEntry(1, 12L);
        assertThat(facts.smallShare()).isGreaterThanOrEqualTo(0.5);
    }

    @Test
    void ledgerIsAboveItsOwnMissingStatisticsLimitsWithoutStatistics() {
        TableFacts facts = facts("ledger");
        assertThat(facts.table().statisticsFiles()).isEmpty();
        assertThat(facts.dataBytes()).isGreaterThanOrEqualTo(8L * 1024 * 1024);
        assertThat(facts.table().properties()).containsEntry("cryo.missing-statistics.critical", String.valueOf(8L * 1024 * 1024));
    }

    @Test
    void sensorReadingsHasOneManifestPerLoadAndNoSmallFiles() {
        TableFacts facts = facts("sensor_readings");
        assertThat(facts.targetFileBytes()).isEqualTo(512 * 1024);
        assertThat(facts.smallFiles()).isZero();
        assertThat(facts.manifests()).isEqualTo(105);
        assertThat(facts.snapshots()).hasSize(105);
        assertThat(facts.oldestSnapshotAge(builtAt)).isBetween(Duration.ofDays(9), Duration.ofDays(11));
    }

    @Test
    void inventorySnapshotsPiledUpOverSixWeeksAndOnlyTheLastTenAreRecent() {
        TableFacts facts = facts("inventory_snapshots");
        assertThat(facts.snapshots()).hasSize(110);
        assertThat(facts.oldestSnapshotAge(builtAt)).isBetween(Duration.ofDays(44), Duration.ofDays(46));
        List<Duration> ages = facts.snapshots().stream()
                .map(snapshot -> Duration.between(Instant.ofEpochMilli(snapshot.timestampMillis()), builtAt)).toList();
        assertThat(ages.subList(100, 110)).allMatch(age -> age.compareTo(Duration.ofDays(3).plusMinutes(5)) <= 0);
        assertThat(ages.subList(0, 100)).allMatch(age -> age.compareTo(Duration.ofDays(10)) >= 0);
        assertThat(facts.dataFiles()).hasSize(3);
    }

    @Test
    void auditEventsHasOldOrphansWorthMoreThanAQuarterOfTheTableAndTwoYoungOnes() throws Exception {
        TableFacts facts = facts("audit_events");
        List<Path> orphans = facts.unreferencedDataFolderFiles();
        assertThat(orphans).hasSize(12);
        Instant floor = builtAt.minus(Duration.ofDays(3));
        long oldBytes = 0;
        int old = 0;
        for (Path orphan : orphans) {
            if (Files.getLastModifiedTime(orphan).toInstant().isBefore(floor)) {
                old++;
                oldBytes += Files.size(orphan);
            }
        }
        assertThat(old).isEqualTo(10);
        assertThat((double) oldBytes / facts.dataBytes()).isGreaterThanOrEqualTo(0.25);
    }

    @Test
    void aSecondBuildFindsEveryTableAndChangesNothing() {
        long snapshotBefore = catalog.loadTable(TableIdentifier.of(namespace, "orders")).currentSnapshot().snapshotId();
        List<FleetBuilder.Built> second = new FleetBuilder(catalog, TestCatalogs.CATALOG, namespace, Clock.systemUTC(),
                new PrintWriter(new StringWriter()), 2).build(Fleet.tables());
        assertThat(second).allMatch(built -> built.outcome() == FleetBuilder.Outcome.EXISTED);
        assertThat(catalog.loadTable(TableIdentifier.of(namespace, "orders")).currentSnapshot().snapshotId())
                .isEqualTo(snapshotBefore);
    }

    @Test
    void aTableLeftHalfBuiltIsDroppedAndBuiltAgain() {
        Namespace other = Namespace.of(TestCatalogs.uniqueNamespace("halfbuilt"));
        DemoTable customers = Fleet.customers();
        // as if a previous run stopped after creating the table, before its recipe finished
        Table halfBuilt = catalog.buildTable(TableIdentifier.of(other, customers.name()), customers.schema()).create();
        new TableData(halfBuilt, new java.util.Random(1), Clock.systemUTC(), 0)
                .append(new TableData(halfBuilt, new java.util.Random(1), Clock.systemUTC(), 0).rows(10,
                        java.time.OffsetDateTime.now(), Duration.ofMinutes(1)));

        List<FleetBuilder.Built> built = new FleetBuilder(catalog, TestCatalogs.CATALOG, other, Clock.systemUTC(),
                new PrintWriter(new StringWriter()), 1).build(List.of(customers));

        assertThat(built).extracting(FleetBuilder.Built::outcome).containsExactly(FleetBuilder.Outcome.RECREATED);
        Table rebuilt = catalog.loadTable(TableIdentifier.of(other, customers.name()));
        assertThat(rebuilt.properties()).containsEntry(Fleet.COMPLETE_PROPERTY, "true");
        assertThat(TableFacts.of(rebuilt).dataFiles()).hasSize(3);
        catalog.dropTable(TableIdentifier.of(other, customers.name()), true);
    }
}
