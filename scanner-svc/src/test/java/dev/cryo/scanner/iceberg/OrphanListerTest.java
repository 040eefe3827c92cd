package dev.cryo.scanner.iceberg;

import dev.cryo.contracts.event.OrphanStats;
import dev.cryo.iceberg.fixtures.SampleTables;
import dev.cryo.iceberg.fixtures.TableWriter;
import dev.cryo.iceberg.orphan.LocationEquivalence;
import dev.cryo.iceberg.orphan.TableLocations;
import dev.cryo.iceberg.orphan.ReachableFiles;
import dev.cryo.testsupport.Infrastructure;
import dev.cryo.testsupport.NeedsInfrastructure;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
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
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The orphan listing finds a planted orphan older than the age floor and ignores a younger one
 * and every referenced file, however old: data files (also those only an older snapshot still
 * references), delete files, manifests, manifest lists and metadata files.
 */
@NeedsInfrastructure(Infrastructure.Component.POSTGRESQL)
class OrphanListerTest {

    @TempDir
    static Path warehouse;
    static TestTables tables;

    @BeforeAll
    static void setUp() {
        tables = new TestTables(warehouse);
    }

    @AfterAll
    static void tearDown() throws Exception {
        tables.close();
    }

    @Test
    void anOldOrphanIsFoundAYoungOneAndEveryReferencedFileAreNot() throws IOException {
        Table table = tables.create("orphans", 2, PartitionSpec.builderFor(SampleTables.EVENTS).day("event_ts").build(),
                Map.of());
        TableWriter writer = new TableWriter(table);
        OffsetDateTime start = OffsetDateTime.of(2026, 11, 1, 0, 0, 0, 0, ZoneOffset.UTC);
        List<DataFile> first = writer.append(SampleTables.events(new Random(1), 0, 30, start, Duration.ofDays(2), 2, 10));
        writer.append(SampleTables.events(new Random(2), 100, 30, start, Duration.ofDays(2), 2, 10));
        writer.commitDeletes(writer.writePositionDeletes(first.get(0), 0));
        // replace one file: it stays referenced by the older snapshots
        table.refresh();
        table.newDelete().deleteFile(first.get(1)).commit();
        table.refresh();

        Path location = Path.of(URI.create(table.location()));
        Path oldOrphan = Files.writeString(location.resolve("data/left-by-a-failed-job.parquet"), "o".repeat(4096));
        Path youngOrphan = Files.writeString(location.resolve("data/commit-in-flight.parquet"), "y".repeat(100));
        Instant tenDaysAgo = Instant.now().minus(Duration.ofDays(10));
        try (Stream<Path> files = Files.walk(location)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                if (!file.equals(youngOrphan)) {
                    Files.setLastModifiedTime(file, FileTime.from(tenDaysAgo));
                }
            }
        }
        long filesOnDisk;
        try (Stream<Path> files = Files.walk(location)) {
            filesOnDisk = files.filter(Files::isRegularFile).count();
        }

        OrphanStats stats = new OrphanLister(Clock.systemUTC(), LocationEquivalence.DEFAULT).list(table, Duration.ofDays(3), TableLocations.of(List.of(table)));

        assertThat(stats.listedFiles()).isEqualTo(filesOnDisk);
        assertThat(stats.orphanFiles()).isEqualTo(1);
        assertThat(stats.orphanBytes()).isEqualTo(Files.size(oldOrphan));
        assertThat(stats.ageFloor()).isEqualTo(Duration.ofDays(3));
        try (Stream<Path> files = Files.walk(location)) {
            List<String> referencedOnDisk = files.filter(Files::isRegularFile)
                    .filter(file -> !file.equals(oldOrphan) && !file.equals(youngOrphan))
                    .map(file -> file.toUri().toString()).toList();
            assertThat(referencedOnDisk).hasSize((int) filesOnDisk - 2);
            ReachableFiles reachable = ReachableFiles.of(table, LocationEquivalence.DEFAULT);
            assertThat(referencedOnDisk).allMatch(reachable::references, "referenced by the table");
        }
    }

    @Test
    void anotherTablesFilesUnderTheLocationAreLeftOutAndTheNestedTableIsRefused() throws IOException {
        Table outer = tables.create("outer", 2, PartitionSpec.unpartitioned(), Map.of());
        Table inner = tables.catalog().buildTable(org.apache.iceberg.catalog.TableIdentifier.of(
                        org.apache.iceberg.catalog.Namespace.of(tables.id(outer).namespace().toArray(String[]::new)), "inner"),
                SampleTables.EVENTS).withLocation(outer.location() + "/archive").create();
        OffsetDateTime start = OffsetDateTime.of(2026, 11, 1, 0, 0, 0, 0, ZoneOffset.UTC);
        new TableWriter(outer).append(SampleTables.events(new Random(3), 0, 10, start, Duration.ofDays(1), 1, 10));
        new TableWriter(inner).append(SampleTables.events(new Random(4), 0, 10, start, Duration.ofDays(1), 1, 10));
        Instant tenDaysAgo = Instant.now().minus(Duration.ofDays(10));
        long innerFiles;
        try (Stream<Path> files = Files.walk(Path.of(URI.create(outer.location())))) {
            List<Path> all = files.filter(Files::isRegularFile).toList();
            for (Path file : all) {
                Files.setLastModifiedTime(file, FileTime.from(tenDaysAgo));
            }
            innerFiles = all.stream().filter(file -> file.toString().contains("/archive/")).count();
        }
        OrphanLister lister = new OrphanLister(Clock.systemUTC(), LocationEquivalence.DEFAULT);
        TableLocations both = TableLocations.of(List.of(outer, inner));

        OrphanStats outerStats = lister.list(outer, Duration.ofDays(3), both);
        OrphanStats innerStats = lister.list(inner, Duration.ofDays(3), both);

        assertThat(outerStats.orphanFiles()).isZero();
        assertThat(outerStats.otherTablesFiles()).isEqualTo(innerFiles).isPositive();
        assertThat(outerStats.refusal()).isNull();
        assertThat(innerStats.orphanFiles()).isZero();
        assertThat(innerStats.refusal()).startsWith("Cannot search " + inner.name() + " for orphan files: its location "
                + inner.location() + " lies inside the folder of another table: ");
    }
}
