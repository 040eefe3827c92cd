package dev.cryo.executor.iceberg;

import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.executor.ExecutorErrorCode;
import dev.cryo.executor.engine.JobRecords;
import dev.cryo.executor.engine.StepKey;
import dev.cryo.executor.engine.StepRequest;
import dev.cryo.executor.engine.StepResult;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.iceberg.fingerprint.Fingerprint;
import dev.cryo.iceberg.fingerprint.Fingerprints;
import dev.cryo.iceberg.fixtures.LocalCatalogs;
import dev.cryo.iceberg.fixtures.SampleTables;
import dev.cryo.iceberg.fixtures.TableWriter;
import dev.cryo.platform.error.CryoException;
import dev.cryo.testsupport.Infrastructure;
import dev.cryo.testsupport.NeedsInfrastructure;
import dev.cryo.testsupport.S3MockServer;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * remove_orphan_files where tables share storage, on local disk and on S3 (S3Mock, S3FileIO): a
 * table created inside another's location (an archive table made weeks ago, so its files are old),
 * another table's {@code write.data.path} under the location, a table at the root of its bucket,
 * and paths that are spelled two ways. The engine's clock runs ten days ahead, so every file is
 * older than the floor and only references and other tables' folders keep it.
 */
@NeedsInfrastructure(Infrastructure.Component.POSTGRESQL)
class SharedLocationsTest {

    enum Storage { LOCAL, S3 }

    static final Clock TEN_DAYS_AHEAD = Clock.offset(Clock.systemUTC(), Duration.ofDays(10));
    static final String SUFFIX = UUID.randomUUID().toString().substring(0, 8);
    static final String LOCAL = "shared_local_" + SUFFIX;
    static final String S3 = "shared_s3_" + SUFFIX;
    static final Namespace NAMESPACE = Namespace.of("db");

    @TempDir
    static Path root;
    static S3MockServer s3;
    static CatalogRegistry registry;

    @BeforeAll
    static void start() throws Exception {
        s3 = new S3MockServer(root.resolve("s3"));
        Map<String, String> local = LocalCatalogs.jdbc(Infrastructure.jdbcUrl(), Infrastructure.dbUser(),
                Infrastructure.dbPassword(), "executor_shared_test", root.resolve("local"));
        Map<String, String> onS3 = new HashMap<>(LocalCatalogs.jdbc(Infrastructure.jdbcUrl(), Infrastructure.dbUser(),
                Infrastructure.dbPassword(), "executor_shared_test", root.resolve("unused")));
        onS3.putAll(s3.warehouseProperties(S3));
        registry = CatalogRegistry.create(Map.of(LOCAL, local, S3, onS3));
        ((SupportsNamespaces) registry.catalog(LOCAL)).createNamespace(NAMESPACE);
        ((SupportsNamespaces) registry.catalog(S3)).createNamespace(NAMESPACE);
    }

    @AfterAll
    static void stop() throws Exception {
        registry.close();
        s3.close();
    }

    @ParameterizedTest
    @EnumSource(Storage.class)
    void aTableNestedInAnothersLocationKeepsEveryFileAndIsItselfRefused(Storage storage) {
        Table outer = create(storage, "outer", null, Map.of());
        Table inner = create(storage, "inner", outer.location() + "/archive", Map.of());
        TableContents.fill(outer, 2, 1);
        TableContents.fill(inner, 3, 2);
        List<String> planted = TableContents.plant(outer, 3);
        Set<String> innerFiles = listed(inner, inner.location() + "/");
        Fingerprint innerRows = Fingerprints.ofTable(inner);
        Fingerprint outerRows = Fingerprints.ofTable(outer);

        StepResult removed = removeOrphans(outer);

        assertThat(paths(removed.files())).containsExactlyInAnyOrderElementsOf(paths(planted));
        assertThat(removed.message()).contains(innerFiles.size() + " under the folders of other tables: "
                + name(storage, inner) + " (location " + inner.location() + ")");
        assertThat(listed(inner, inner.location() + "/")).isEqualTo(innerFiles);
        inner.refresh();
        outer.refresh();
        assertThat(Fingerprints.ofTable(inner)).isEqualTo(innerRows);
        assertThat(Fingerprints.ofTable(outer)).isEqualTo(outerRows);

        List<String> innerOrphans = TableContents.plant(inner, 2);
        assertThatThrownBy(() -> removeOrphans(inner))
                .isInstanceOfSatisfying(CryoException.class, e -> assertThat(e.code()).isEqualTo(ExecutorErrorCode.SHARED_LOCATION))
                .hasMessage("Cannot search " + inner.name() + " for orphan files: its location " + inner.location()
                        + " lies inside the folder of another table: " + name(storage, outer) + " (location "
                        + outer.location() + "); Cryo deletes nothing there. Give the table a location of its own"
                        + " (ALTER TABLE ... SET LOCATION, or a new table) to have its orphans removed");
        assertThat(paths(List.copyOf(listed(inner, inner.location() + "/")))).containsAll(paths(innerOrphans));
    }

    @ParameterizedTest
    @EnumSource(Storage.class)
    void aNestedTableWhoseMetadataFileIsMissingStillKeepsItsFiles(Storage storage) {
        Table outer = create(storage, "around", null, Map.of());
        Table broken = create(storage, "broken", outer.location() + "/broken", Map.of());
        TableContents.fill(outer, 1, 10);
        TableContents.fill(broken, 2, 11);
        String metadata = ((org.apache.iceberg.HasTableOperations) broken).operations().current().metadataFileLocation();
        broken.io().deleteFile(metadata);
        Set<String> brokenFiles = listed(outer, broken.location() + "/");
        List<String> planted = TableContents.plant(outer, 1);

        StepResult removed = removeOrphans(outer);

        assertThat(paths(removed.files())).containsExactlyInAnyOrderElementsOf(paths(planted));
        // the location as the FileIO's error spells it
        assertThat(removed.message()).contains(brokenFiles.size() + " under the folders of other tables: "
                + name(storage, broken) + " (location of its missing metadata ")
                .contains(paths(List.of(broken.location())).get(0) + ")");
        assertThat(listed(outer, broken.location() + "/")).isEqualTo(brokenFiles);
    }

    @ParameterizedTest
    @EnumSource(Storage.class)
    void anotherTablesDataPathUnderTheLocationIsLeftAlone(Storage storage) {
        Table outer = create(storage, "host", null, Map.of());
        TableContents.fill(outer, 1, 3);
        Table guest = create(storage, "guest", null, Map.of(TableProperties.WRITE_DATA_LOCATION,
                outer.location() + "/guest-data"));
        TableContents.fill(guest, 2, 4);
        Set<String> guestFiles = listed(outer, outer.location() + "/guest-data/");
        assertThat(guestFiles).isNotEmpty();
        Fingerprint guestRows = Fingerprints.ofTable(guest);
        List<String> planted = TableContents.plant(outer, 2);

        StepResult removed = removeOrphans(outer);

        assertThat(paths(removed.files())).containsExactlyInAnyOrderElementsOf(paths(planted));
        assertThat(removed.message()).contains(guestFiles.size() + " under the folders of other tables: "
                + name(storage, guest) + " (write.data.path " + outer.location() + "/guest-data)");
        assertThat(listed(outer, outer.location() + "/guest-data/")).isEqualTo(guestFiles);
        guest.refresh();
        assertThat(Fingerprints.ofTable(guest)).isEqualTo(guestRows);
    }

    @Test
    void aTableAtTheRootOfItsBucketIsRefused() {
        Table bare = create(Storage.S3, "bare", "s3://" + S3MockServer.BARE_BUCKET, Map.of());
        TableContents.fill(bare, 1, 5);
        List<String> planted = TableContents.plant(bare, 1);

        assertThatThrownBy(() -> removeOrphans(bare))
                .isInstanceOfSatisfying(CryoException.class, e -> assertThat(e.code()).isEqualTo(ExecutorErrorCode.SHARED_LOCATION))
                .hasMessageContaining("its location s3://" + S3MockServer.BARE_BUCKET + " is the root of its bucket,"
                        + " container or file system, where any other data may lie; Cryo deletes nothing there");
        assertThat(paths(List.copyOf(listed(bare, "s3://" + S3MockServer.BARE_BUCKET + "/")))).containsAll(paths(planted));
    }

    @ParameterizedTest
    @EnumSource(Storage.class)
    void aFileReferencedUnderAnotherSpellingOfItsPathIsKept(Storage storage) throws IOException {
        Table table = create(storage, "spelled", null, Map.of());
        TableContents.fill(table, 1, 6);
        // A writer that spelled the file's folder with a dot segment and a doubled slash; on S3 the
        // object's key is that spelling, on local disk the file system resolves it.
        DataFile written = new TableWriter(table).writeDataFiles(SampleTables.events(new Random(7), 50_000, 20,
                TestTables.START, Duration.ofDays(1), 1, 30)).get(0);
        String folder = written.location().substring(0, written.location().lastIndexOf('/'));
        String name = written.location().substring(folder.length() + 1);
        String spelled = folder + "/.//" + name;
        if (storage == Storage.S3) {
            copy(table, written.location(), spelled);
            table.io().deleteFile(written.location());
        }
        table.newAppend().appendFile(DataFiles.builder(table.spec()).copy(written).withPath(spelled).build()).commit();
        table.refresh();
        Fingerprint rows = Fingerprints.ofTable(table);
        List<String> planted = TableContents.plant(table, 1);

        StepResult removed = removeOrphans(table);

        assertThat(paths(removed.files())).containsExactlyInAnyOrderElementsOf(paths(planted));
        assertThat(table.io().newInputFile(spelled).exists()).isTrue();
        assertThat(Fingerprints.ofTable(table)).isEqualTo(rows);
    }

    @Test
    void twoObjectsWhosePathsAreOneAfterCanonicalizationStopTheRun() throws IOException {
        Table table = create(Storage.S3, "twice", null, Map.of());
        TableContents.fill(table, 1, 8);
        List<String> planted = TableContents.plant(table, 1);
        String referenced = referencedDataFile(table);
        String folder = referenced.substring(0, referenced.lastIndexOf('/'));
        String twin = folder + "//" + referenced.substring(folder.length() + 1);
        copy(table, referenced, twin);

        assertThatThrownBy(() -> removeOrphans(table))
                .isInstanceOfSatisfying(CryoException.class, e -> assertThat(e.code()).isEqualTo(ExecutorErrorCode.LOCATION_MISMATCH))
                .hasMessageContaining("1 path is spelled two ways (" + twin + " and " + referenced + ")")
                .hasMessageContaining("rename or remove the one nothing references")
                .hasMessageEndingWith("so nothing was deleted");
        assertThat(listed(table, table.location() + "/")).contains(twin, referenced).containsAll(planted);
    }

    @Test
    void aFileOfUnknownAgeIsNeverACandidate() throws IOException {
        Table table = create(Storage.LOCAL, "ageless", null, Map.of());
        TableContents.fill(table, 1, 9);
        List<String> planted = TableContents.plant(table, 2);
        // A listing without a modification time reports 0: no age, so never old enough.
        Files.setLastModifiedTime(Path.of(java.net.URI.create(planted.get(0))), FileTime.fromMillis(0));

        StepResult removed = removeOrphans(table);

        assertThat(paths(removed.files())).containsExactly(paths(planted.subList(1, 2)).get(0));
        assertThat(removed.message()).contains("1 unreferenced but younger than the floor or of unknown age");
        assertThat(table.io().newInputFile(planted.get(0)).exists()).isTrue();
    }

    // ------------------------------------------------------------------ helpers

    private static Table create(Storage storage, String name, String location, Map<String, String> properties) {
        TableIdentifier identifier = TableIdentifier.of(NAMESPACE, name + "_" + UUID.randomUUID().toString().substring(0, 6));
        var builder = registry.catalog(catalog(storage)).buildTable(identifier, SampleTables.EVENTS)
                .withPartitionSpec(PartitionSpec.builderFor(SampleTables.EVENTS).day("event_ts").build())
                .withProperties(properties);
        return (location == null ? builder : builder.withLocation(location)).create();
    }

    private static String catalog(Storage storage) {
        return storage == Storage.S3 ? S3 : LOCAL;
    }

    private static String name(Storage storage, Table table) {
        return catalog(storage) + "." + table.name().substring(table.name().indexOf('.') + 1);
    }



    /** Locations as their canonical path: a listing spells {@code file:/}, metadata {@code file:///}. */
    private static List<String> paths(List<String> locations) {
        return locations.stream().map(location -> dev.cryo.iceberg.orphan.FileLocation.parse(location).path()).toList();
    }

    private static String referencedDataFile(Table table) {
        return TestTables.dataFiles(table).get(0).location();
    }

    private static void copy(Table table, String from, String to) throws IOException {
        InputFile source = table.io().newInputFile(from);
        try (InputStream in = source.newStream(); PositionOutputStream out = table.io().newOutputFile(to).create()) {
            in.transferTo(out);
        }
    }

    private static Set<String> listed(Table table, String prefix) {
        return new TreeSet<>(TableContents.listed(table, prefix));
    }

    private static StepResult removeOrphans(Table table) {
        NativeEngine engine = new NativeEngine(registry, new NativeEngineSettings(TestTables.REWRITE, Duration.ofDays(5), 1,
                OrphanRemovalSettings.DEFAULTS), JobRecords.NONE, TEN_DAYS_AHEAD);
        StepResult result = engine.run(new StepRequest(id(table), "job-" + UUID.randomUUID(),
                StepKey.table(Operation.REMOVE_ORPHAN_FILES), List.of(), OperationParameters.NONE));
        table.refresh();
        return result;
    }

    private static TableId id(Table table) {
        String[] parts = table.name().split("\\.");
        return TableId.of(parts[0], parts[parts.length - 2], parts[parts.length - 1]);
    }
}
