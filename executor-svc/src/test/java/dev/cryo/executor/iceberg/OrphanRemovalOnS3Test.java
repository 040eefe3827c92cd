package dev.cryo.executor.iceberg;

import dev.cryo.contracts.OrphanAgeFloors;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.executor.ExecutorErrorCode;
import dev.cryo.executor.engine.OrphanShareBrake;
import dev.cryo.executor.engine.StepKey;
import dev.cryo.executor.engine.JobRecords;
import dev.cryo.executor.engine.OrphanBrakeReleases;
import dev.cryo.executor.engine.StepRequest;
import dev.cryo.executor.engine.StepResult;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.iceberg.orphan.TableLocations;
import dev.cryo.iceberg.fingerprint.Fingerprint;
import dev.cryo.iceberg.fingerprint.Fingerprints;
import dev.cryo.iceberg.fixtures.LocalCatalogs;
import dev.cryo.iceberg.fixtures.SampleTables;
import dev.cryo.iceberg.fixtures.TableWriter;
import dev.cryo.iceberg.orphan.LocationEquivalence;
import dev.cryo.platform.error.CryoException;
import dev.cryo.testsupport.Infrastructure;
import dev.cryo.testsupport.NeedsInfrastructure;
import dev.cryo.testsupport.S3MockServer;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * remove_orphan_files on {@code s3://} through Iceberg's S3FileIO against a local S3-compatible
 * server (S3Mock), where a prefix listing is a raw key-prefix listing: a sibling table whose name
 * starts with this one's, manifests that spell the bucket with {@code s3a://}, merge-on-read tables
 * with position deletes and v3 deletion vectors, and a writer that commits a file after the listing.
 * S3 objects cannot be back-dated, so the engine's clock runs ten days ahead: every file is older than
 * the floor and only the table's references keep it.
 */
@NeedsInfrastructure(Infrastructure.Component.POSTGRESQL)
class OrphanRemovalOnS3Test {

    static final Clock TEN_DAYS_AHEAD = Clock.offset(Clock.systemUTC(), Duration.ofDays(10));

    @TempDir
    static Path root;
    static S3MockServer s3;
    static CatalogRegistry registry;
    static final String CATALOG = "s3_orphans_" + UUID.randomUUID().toString().substring(0, 8);
    static final Namespace NAMESPACE = Namespace.of("db");

    @BeforeAll
    static void start() throws Exception {
        s3 = new S3MockServer(root);
        Map<String, String> properties = new HashMap<>(LocalCatalogs.jdbc(Infrastructure.jdbcUrl(), Infrastructure.dbUser(),
                Infrastructure.dbPassword(), "executor_s3_test", root));
        properties.putAll(s3.warehouseProperties(CATALOG));
        registry = CatalogRegistry.create(Map.of(CATALOG, properties));
        ((SupportsNamespaces) registry.catalog(CATALOG)).createNamespace(NAMESPACE);
    }

    @AfterAll
    static void stop() throws Exception {
        registry.close();
        s3.close();
    }

    @Test
    void aSiblingTableWhoseNameStartsWithThisOnesLosesNothing() {
        // exactly these names, side by side in a namespace of their own
        Namespace namespace = Namespace.of("siblings_" + UUID.randomUUID().toString().substring(0, 6));
        ((SupportsNamespaces) registry.catalog(CATALOG)).createNamespace(namespace);
        Table events = registry.catalog(CATALOG).createTable(TableIdentifier.of(namespace, "events"), SampleTables.EVENTS,
                PartitionSpec.builderFor(SampleTables.EVENTS).day("event_ts").build());
        Table archive = registry.catalog(CATALOG).createTable(TableIdentifier.of(namespace, "events_archive"),
                SampleTables.EVENTS, PartitionSpec.builderFor(SampleTables.EVENTS).day("event_ts").build());
        assertThat(archive.location()).startsWith(events.location());
        TableContents.fill(events, 3, 1);
        TableContents.fill(archive, 3, 2);
        List<String> planted = TableContents.plant(events, 3);
        // The case is real: a raw prefix listing of the location without its slash reaches the sibling's files.
        assertThat(TableContents.listed(events, events.location())).anyMatch(location -> location.contains("/events_archive/"));
        Set<String> archiveBefore = new java.util.HashSet<>(TableContents.listed(archive, archive.location() + "/"));
        Fingerprint archiveRows = Fingerprints.ofTable(archive);
        Fingerprint eventsRows = Fingerprints.ofTable(events);

        StepResult removed = removeOrphans(engine(OrphanRemovalSettings.DEFAULTS), events);

        assertThat(removed.files()).containsExactlyInAnyOrderElementsOf(planted);
        assertThat(TableContents.listed(events, events.location() + "/")).doesNotContainAnyElementsOf(planted);
        assertThat(TableContents.listed(archive, archive.location() + "/")).containsExactlyInAnyOrderElementsOf(archiveBefore);
        archive.refresh();
        events.refresh();
        assertThat(Fingerprints.ofTable(archive)).isEqualTo(archiveRows);
        assertThat(Fingerprints.ofTable(events)).isEqualTo(eventsRows);
    }

    @Test
    void manifestsThatSpellTheBucketS3aAreTheSameFilesByDefaultAndStopTheRunWhenS3aIsNotDeclaredEquivalent() {
        Table table = create("hadoop_written", 2);
        TableWriter writer = new TableWriter(table);
        List<DataFile> written = writer.writeDataFiles(SampleTables.events(new Random(11), 0, 60, TestTables.START,
                Duration.ofDays(3), 4, 30));
        var append = table.newAppend();
        for (DataFile file : written) {
            // what a Hadoop writer records: the same object, spelled s3a://
            append.appendFile(DataFiles.builder(table.specs().get(file.specId())).copy(file)
                    .withPath(file.location().replaceFirst("^s3://", "s3a://")).build());
        }
        append.commit();
        table.refresh();
        assertThat(table.location()).startsWith("s3://");
        List<String> planted = TableContents.plant(table, 2);
        Set<String> before = new java.util.HashSet<>(TableContents.listed(table, table.location() + "/"));
        Fingerprint rows = Fingerprints.ofTable(table);

        OrphanRemovalSettings strict = new OrphanRemovalSettings(Duration.ofDays(3), OrphanAgeFloors.UnsafeFloors.REFUSED,
                LocationEquivalence.NONE, new OrphanShareBrake(0.5), 1000, false);
        assertThatThrownBy(() -> removeOrphans(engine(strict), table))
                .isInstanceOfSatisfying(CryoException.class, e -> assertThat(e.code()).isEqualTo(ExecutorErrorCode.LOCATION_MISMATCH))
                .hasMessageStartingWith("Cannot remove orphan files of " + table.name() + ": " + written.size()
                        + " listed files have the path of a file the table references under another scheme or authority (")
                .hasMessageContaining(written.get(0).location() + " is referenced as s3a://")
                .hasMessageContaining("); if the schemes or authorities name the same storage, declare them equivalent with"
                        + " cryo.orphans.equivalent-schemes or cryo.orphans.equivalent-authorities. ")
                .hasMessageEndingWith("Cryo cannot tell whether these are the referenced files under another name, so nothing"
                        + " was deleted");
        assertThat(TableContents.listed(table, table.location() + "/")).containsExactlyInAnyOrderElementsOf(before);

        StepResult removed = removeOrphans(engine(OrphanRemovalSettings.DEFAULTS), table);

        assertThat(removed.files()).containsExactlyInAnyOrderElementsOf(planted);
        assertThat(TableContents.listed(table, table.location() + "/")).containsAll(written.stream().map(DataFile::location).toList());
        table.refresh();
        assertThat(Fingerprints.ofTable(table)).isEqualTo(rows);
    }

    @ParameterizedTest(name = "format version {0}")
    @ValueSource(ints = {2, 3})
    void aMergeOnReadTableLosesItsOrphansAndKeepsEveryLiveDeleteFile(int formatVersion) {
        Table table = create("merge_on_read_v" + formatVersion, formatVersion);
        TableContents.fill(table, 3, 3);
        TableWriter writer = new TableWriter(table);
        List<DataFile> files = TestTables.dataFiles(table);
        List<DeleteFile> deletes = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            DeleteFile delete = writer.writePositionDeletes(files.get(i), 0, 1);
            writer.commitDeletes(delete);
            deletes.add(delete);
        }
        table.refresh();
        assertThat(TestTables.liveDeleteFiles(table)).hasSize(3);
        if (formatVersion == 3) {
            assertThat(deletes).allMatch(delete -> delete.format() == FileFormat.PUFFIN, "deletion vectors in Puffin files");
        }
        List<String> planted = TableContents.plant(table, 3);
        Fingerprint rows = Fingerprints.ofTable(table);
        Set<String> live = new java.util.HashSet<>(TableContents.listed(table, table.location() + "/"));
        live.removeAll(planted);

        StepResult removed = removeOrphans(engine(OrphanRemovalSettings.DEFAULTS), table);

        assertThat(removed.files()).containsExactlyInAnyOrderElementsOf(planted);
        assertThat(TableContents.listed(table, table.location() + "/")).containsExactlyInAnyOrderElementsOf(live);
        assertThat(live).containsAll(deletes.stream().map(DeleteFile::location).toList());
        table.refresh();
        assertThat(Fingerprints.ofTable(table)).isEqualTo(rows);
    }

    @Test
    void aFileAWriterWroteBeforeTheListingAndCommitsAfterItSurvives() {
        Table table = create("late_writer", 2);
        TableContents.fill(table, 2, 4);
        // A long job wrote these files (ten days before the engine's clock), then commits them after Cryo listed.
        List<Record> lateRows = SampleTables.events(new Random(44), 9_000, 40, TestTables.START, Duration.ofDays(2), 4, 30);
        List<DataFile> late = new TableWriter(table).writeDataFiles(lateRows);
        List<String> planted = TableContents.plant(table, 2);
        List<Record> rowsBefore = rows(table);

        StepResult removed = new OrphanRemover(table, OrphanRemovalSettings.DEFAULTS, TEN_DAYS_AHEAD,
                () -> TableLocations.read(registry))
                .afterFirstLook(() -> {
                    var append = table.newAppend();
                    late.forEach(append::appendFile);
                    append.commit();
                })
                .remove(OrphanRemovalSettings.DEFAULTS.floor(null), OrphanRemover.Mode.DELETE, id(table), "job-late",
                        OrphanBrakeReleases.NONE);

        assertThat(removed.files()).containsExactlyInAnyOrderElementsOf(planted);
        assertThat(removed.message()).contains(late.size() + " candidates kept because a newer snapshot references them"
                + " or they changed since the listing");
        assertThat(TableContents.listed(table, table.location() + "/")).containsAll(late.stream().map(DataFile::location).toList());
        table.refresh();
        List<Record> expected = new ArrayList<>(rowsBefore);
        expected.addAll(lateRows);
        assertThat(Fingerprints.ofTable(table)).isEqualTo(Fingerprints.of(table.schema(), expected));
    }

    @Test
    void aRunWhoseCandidatesAreMostOfTheTableStopsUntilAnOperatorReleasesTheBrakeForOneRun() {
        Table table = create("mostly_orphans", 2);
        TableContents.fill(table, 1, 5);
        int listedBefore = TableContents.listed(table, table.location() + "/").size();
        List<String> planted = TableContents.plant(table, listedBefore + 1);
        NativeEngine braked = engine(OrphanRemovalSettings.DEFAULTS);

        assertThatThrownBy(() -> removeOrphans(braked, table))
                .isInstanceOfSatisfying(CryoException.class, e -> assertThat(e.code()).isEqualTo(ExecutorErrorCode.ORPHAN_SHARE_BRAKE))
                .hasMessageStartingWith("Cannot remove orphan files of " + table.name() + ": " + planted.size() + " of "
                        + (listedBefore + planted.size()) + " listed files")
                .hasMessageContaining("more than cryo.executor.orphans.max-share of 50 %; nothing was deleted")
                .hasMessageContaining("POST /api/v1/tables/" + id(table) + "/orphans/brake-release");
        assertThat(TableContents.listed(table, table.location() + "/")).containsAll(planted);

        List<String> used = new ArrayList<>();
        OrphanBrakeReleases once = (tableId, jobId) -> {
            if (used.isEmpty()) {
                used.add(jobId);
                return java.util.Optional.of(new OrphanBrakeReleases.Release("operator:alice", java.time.Instant.now(),
                        "a failed backfill"));
            }
            return java.util.Optional.empty();
        };
        NativeEngine released = new NativeEngine(registry, settings(OrphanRemovalSettings.DEFAULTS),
                new JobRecords(JobRecords.NONE.stepLog(), JobRecords.NONE.runningJobs(), once), TEN_DAYS_AHEAD);
        StepResult removed = removeOrphans(released, table);

        assertThat(removed.files()).containsExactlyInAnyOrderElementsOf(planted);
        assertThat(removed.message()).contains("share brake (").contains("released by operator:alice at")
                .contains("(a failed backfill)");
        assertThat(used).hasSize(1);
        List<String> plantedAgain = TableContents.plant(table, listedBefore + 1);
        assertThatThrownBy(() -> removeOrphans(released, table)).hasMessageContaining("nothing was deleted");
        assertThat(TableContents.listed(table, table.location() + "/")).containsAll(plantedAgain);
    }

    // ------------------------------------------------------------------ helpers

    private static Table create(String name, int formatVersion) {
        return registry.catalog(CATALOG).createTable(TableIdentifier.of(NAMESPACE, name + "_" + formatVersion
                        + "_" + UUID.randomUUID().toString().substring(0, 6)), SampleTables.EVENTS,
                PartitionSpec.builderFor(SampleTables.EVENTS).day("event_ts").build(),
                Map.of(TableProperties.FORMAT_VERSION, String.valueOf(formatVersion)));
    }




    private static NativeEngine engine(OrphanRemovalSettings orphans) {
        return new NativeEngine(registry, settings(orphans), JobRecords.NONE, TEN_DAYS_AHEAD);
    }

    private static NativeEngineSettings settings(OrphanRemovalSettings orphans) {
        return new NativeEngineSettings(TestTables.REWRITE, Duration.ofDays(5), 1, orphans);
    }

    private static StepResult removeOrphans(NativeEngine engine, Table table) {
        StepResult result = engine.run(new StepRequest(id(table), "job-" + UUID.randomUUID(),
                StepKey.table(Operation.REMOVE_ORPHAN_FILES), List.of(), OperationParameters.NONE));
        table.refresh();
        return result;
    }

    private static TableId id(Table table) {
        String[] parts = table.name().split("\\.");
        return TableId.of(CATALOG, parts[parts.length - 2], parts[parts.length - 1]);
    }

    private static List<Record> rows(Table table) {
        List<Record> rows = new ArrayList<>();
        try (var read = org.apache.iceberg.data.IcebergGenerics.read(table).build()) {
            read.forEach(rows::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return rows;
    }
}
