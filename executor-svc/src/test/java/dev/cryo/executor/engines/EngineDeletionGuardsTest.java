package dev.cryo.executor.engines;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.OrphanAgeFloors;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.enginesql.CapabilityMatrix;
import dev.cryo.enginesql.CatalogNames;
import dev.cryo.enginesql.EngineClient;
import dev.cryo.enginesql.spark.SparkConnectClient;
import dev.cryo.enginesql.spark.SparkRenderer;
import dev.cryo.enginesql.spark.SparkSettings;
import dev.cryo.enginesql.trino.TrinoClient;
import dev.cryo.enginesql.trino.TrinoRenderer;
import dev.cryo.enginesql.trino.TrinoSettings;
import dev.cryo.executor.ExecutorErrorCode;
import dev.cryo.executor.engine.OrphanShareBrake;
import dev.cryo.executor.engine.StepKey;
import dev.cryo.executor.engine.JobRecords;
import dev.cryo.executor.engine.StepRequest;
import dev.cryo.executor.engine.StepResult;
import dev.cryo.executor.iceberg.OperationDefaults;
import dev.cryo.executor.iceberg.OrphanRemovalSettings;
import dev.cryo.executor.iceberg.TableLoader;
import dev.cryo.executor.iceberg.TestTables;
import dev.cryo.executor.sql.SqlEngine;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.iceberg.fingerprint.Fingerprint;
import dev.cryo.iceberg.fingerprint.Fingerprints;
import dev.cryo.iceberg.fixtures.SampleTables;
import dev.cryo.iceberg.orphan.LocationEquivalence;
import dev.cryo.platform.error.CryoException;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The guards of the deleting operations on real Trino 476 and Spark 4.0.1, which delete by their own
 * rules: Cryo's checks run before either is asked. A dry run deletes nothing (Spark's
 * {@code dry_run => true}, Cryo's own on Trino, which has none); {@code gc.enabled=false} and a
 * snapshot a tag still needs refuse before the engine is asked; a real run deletes the old orphans
 * and nothing else; and Trino's catalog keeps its own floors for everyone else while Cryo's session
 * sets its own.
 */
@Tag("engines")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EngineDeletionGuardsTest {

    private static final String NAMESPACE = "cryo_guards_" + UUID.randomUUID().toString().substring(0, 8);
    private static final CapabilityMatrix MATRIX = CapabilityMatrix.of(TrinoSettings.DEFAULT,
            SparkSettings.systemClock(CatalogNames.SAME));

    private CatalogRegistry catalogs;
    private TrinoClient trino;
    private SparkConnectClient spark;

    @BeforeAll
    void connect() {
        EnginesProfile.requireEnginesRunning();
        catalogs = CatalogRegistry.create(Map.of(EnginesProfile.CATALOG, EnginesProfile.catalogProperties()));
        ((SupportsNamespaces) catalog()).createNamespace(Namespace.of(NAMESPACE));
        trino = new TrinoClient(new TrinoClient.Settings(EnginesProfile.TRINO_URL, "cryo", "cryo", null, Duration.ofMinutes(5)));
        spark = new SparkConnectClient(new SparkConnectClient.Settings(EnginesProfile.SPARK_REMOTE, "cryo", Duration.ofMinutes(5)));
    }

    @AfterAll
    void close() throws Exception {
        Catalog catalog = catalog();
        for (TableIdentifier table : catalog.listTables(Namespace.of(NAMESPACE))) {
            catalog.dropTable(table, true);
        }
        ((SupportsNamespaces) catalog).dropNamespace(Namespace.of(NAMESPACE));
        trino.close();
        spark.close();
        catalogs.close();
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"TRINO", "SPARK"})
    void aDryRunDeletesNothing(Engine engine) throws IOException {
        Table table = table(engine.id() + "_dry_run");
        List<Path> orphans = plant(table, 2, Duration.ofDays(10));

        StepResult result = engine(engine, settings(true)).run(step(table, Operation.REMOVE_ORPHAN_FILES,
                OperationParameters.NONE));

        assertThat(orphans).allMatch(Files::exists);
        assertThat(result.message()).contains("dry run: would delete 2 orphan files");
        if (engine == Engine.TRINO) {
            assertThat(result.message()).startsWith("Trino's remove_orphan_files has no dry run; Cryo's own:");
            assertThat(result.queryId()).isNull();
        } else {
            assertThat(result.message()).startsWith("spark ran 1 statement");
            assertThat(result.queryId()).isNotBlank();
        }
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"TRINO", "SPARK"})
    void aTableWithGarbageCollectionDisabledIsRefusedBeforeTheEngineIsAsked(Engine engine) throws IOException {
        Table table = table(engine.id() + "_no_gc");
        table.updateProperties().set(TableProperties.GC_ENABLED, "false").commit();
        List<Path> orphans = plant(table, 1, Duration.ofDays(10));
        Set<Long> snapshots = snapshotIds(table);
        SqlEngine sql = engine(engine, settings(false));

        assertThatThrownBy(() -> sql.run(step(table, Operation.EXPIRE_SNAPSHOTS, new OperationParameters(null, Duration.ZERO,
                1, null))))
                .isInstanceOfSatisfying(CryoException.class, e -> assertThat(e.code()).isEqualTo(ExecutorErrorCode.REFUSED_BY_TABLE_SETTINGS))
                .hasMessageContaining("gc.enabled=false");
        assertThatThrownBy(() -> sql.run(step(table, Operation.REMOVE_ORPHAN_FILES, OperationParameters.NONE)))
                .isInstanceOfSatisfying(CryoException.class, e -> assertThat(e.code()).isEqualTo(ExecutorErrorCode.REFUSED_BY_TABLE_SETTINGS))
                .hasMessageContaining("gc.enabled=false");

        table.refresh();
        assertThat(snapshotIds(table)).isEqualTo(snapshots);
        assertThat(orphans).allMatch(Files::exists);
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"TRINO", "SPARK"})
    void anExpiryThatWouldDropATaggedSnapshotIsRefusedBeforeTheEngineIsAsked(Engine engine) {
        Table table = table(engine.id() + "_tag");
        long tagged = table.currentSnapshot().snapshotId();
        table.manageSnapshots().createTag("quarter-end", tagged).setMaxRefAgeMs("quarter-end", 1L).commit();
        TestTables.fill(table, 2, 10, 1, 97);
        Set<Long> snapshots = snapshotIds(table);

        assertThatThrownBy(() -> engine(engine, settings(false)).run(step(table, Operation.EXPIRE_SNAPSHOTS,
                new OperationParameters(null, Duration.ZERO, 1, null))))
                .isInstanceOf(CryoException.class)
                .hasMessageContaining("snapshot " + tagged + " is referenced by tag 'quarter-end'");

        table.refresh();
        assertThat(snapshotIds(table)).isEqualTo(snapshots);
        assertThat(table.refs()).containsKey("quarter-end");
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"TRINO", "SPARK"})
    void theEngineDeletesTheOldOrphansAndNothingElse(Engine engine) throws IOException {
        Table table = table(engine.id() + "_orphans");
        List<Path> old = plant(table, 2, Duration.ofDays(10));
        List<Path> young = plant(table, 1, Duration.ofHours(2));
        Set<String> referenced = referenced(table);
        Fingerprint rows = Fingerprints.ofTable(table);

        StepResult result = engine(engine, settings(false)).run(step(table, Operation.REMOVE_ORPHAN_FILES,
                OperationParameters.NONE));

        assertThat(result.message()).contains("before it, Cryo checked: 2 orphan files");
        assertThat(old).noneMatch(Files::exists);
        assertThat(young).allMatch(Files::exists);
        assertThat(referenced).allMatch(location -> Files.exists(Path.of(URI.create(location))), "every referenced file exists");
        table.refresh();
        assertThat(Fingerprints.ofTable(table)).isEqualTo(rows);
    }

    @Test
    void trinosCatalogKeepsItsOwnFloorsForEveryoneElse() throws SQLException {
        Table table = table("trino_floor");
        String name = "\"" + EnginesProfile.CATALOG + "\".\"" + NAMESPACE + "\".\"trino_floor\"";
        java.util.Properties user = new java.util.Properties();
        user.setProperty("user", "someone-else");
        try (Connection connection = new io.trino.jdbc.TrinoDriver().connect(EnginesProfile.TRINO_URL, user);
             Statement statement = connection.createStatement()) {
            assertThatThrownBy(() -> statement.execute("ALTER TABLE " + name
                    + " EXECUTE remove_orphan_files(retention_threshold => '3d')"))
                    .hasMessageContaining("is shorter than the minimum retention configured in the system");
            assertThatThrownBy(() -> statement.execute("ALTER TABLE " + name
                    + " EXECUTE expire_snapshots(retention_threshold => '3d')"))
                    .hasMessageContaining("is shorter than the minimum retention configured in the system");
        }
        // Cryo's session sets the floor it checked itself. The engine's clock runs an hour ahead so that
        // Cryo's guard finds snapshots to expire; Trino, with the real clock, is asked for a 60 s threshold,
        // which the catalog's 7-day floor would refuse.
        SqlEngine ahead = new SqlEngine(new TrinoRenderer(TrinoSettings.DEFAULT), trino, MATRIX, new TableLoader(catalogs),
                new OperationDefaults(Duration.ofDays(5), 1, settings(false)), JobRecords.NONE,
                Clock.offset(Clock.systemUTC(), Duration.ofHours(1)), "cryo");
        StepResult result = ahead.run(step(table, Operation.EXPIRE_SNAPSHOTS, new OperationParameters(null,
                Duration.ofMinutes(1), 1, null)));
        assertThat(result.message()).startsWith("trino ran 2 statements");
        assertThat(result.queryId()).isNotBlank();
    }

    // ------------------------------------------------------------------ helpers

    private Catalog catalog() {
        return catalogs.catalog(EnginesProfile.CATALOG);
    }

    private Table table(String name) {
        Table table = catalog().createTable(TableIdentifier.of(NAMESPACE, name), SampleTables.EVENTS,
                PartitionSpec.builderFor(SampleTables.EVENTS).day("event_ts").build(),
                Map.of(TableProperties.FORMAT_VERSION, "2"));
        TestTables.fill(table, 3, 20, 2, 96);
        return table;
    }

    private static OrphanRemovalSettings settings(boolean dryRun) {
        return new OrphanRemovalSettings(Duration.ofDays(3), OrphanAgeFloors.UnsafeFloors.REFUSED, LocationEquivalence.DEFAULT,
                new OrphanShareBrake(0.5), 1000, dryRun);
    }

    private SqlEngine engine(Engine engine, OrphanRemovalSettings orphans) {
        OperationDefaults defaults = new OperationDefaults(Duration.ofDays(5), 1, orphans);
        TableLoader tables = new TableLoader(catalogs);
        if (engine == Engine.TRINO) {
            return new SqlEngine(new TrinoRenderer(TrinoSettings.DEFAULT), trino, MATRIX, tables, defaults, JobRecords.NONE,
                    Clock.systemUTC(), "cryo");
        }
        SparkSettings sparkSettings = new SparkSettings(CatalogNames.SAME, Clock.systemUTC(), orphans.dryRun()
                ? SparkSettings.OrphanRemoval.DRY_RUN : SparkSettings.OrphanRemoval.DELETE);
        EngineClient client = spark;
        return new SqlEngine(new SparkRenderer(sparkSettings), client, MATRIX, tables, defaults, JobRecords.NONE,
                Clock.systemUTC(), null);
    }

    private static StepRequest step(Table table, Operation operation, OperationParameters parameters) {
        String name = table.name().substring(table.name().lastIndexOf('.') + 1);
        return new StepRequest(TableId.of(EnginesProfile.CATALOG, NAMESPACE, name), "job-" + UUID.randomUUID(),
                StepKey.table(operation), List.of(), parameters);
    }

    /** Files nothing references, as a failed job leaves them, back-dated by {@code age}. */
    private static List<Path> plant(Table table, int count, Duration age) throws IOException {
        Path data = Path.of(URI.create(table.location() + "/data"));
        Files.createDirectories(data);
        List<Path> planted = new java.util.ArrayList<>();
        for (int i = 0; i < count; i++) {
            Path orphan = Files.writeString(data.resolve("orphan-" + UUID.randomUUID() + ".parquet"), "stray");
            Files.setLastModifiedTime(orphan, FileTime.from(Instant.now().minus(age)));
            planted.add(orphan);
        }
        return planted;
    }

    /** Every data file and manifest of every snapshot, and the metadata file: what no run may delete. */
    private static Set<String> referenced(Table table) {
        Set<String> referenced = new java.util.HashSet<>();
        for (Snapshot snapshot : table.snapshots()) {
            referenced.add(snapshot.manifestListLocation());
            snapshot.allManifests(table.io()).forEach(manifest -> referenced.add(manifest.path()));
            snapshot.addedDataFiles(table.io()).forEach(file -> referenced.add(file.location()));
        }
        return referenced;
    }

    private static Set<Long> snapshotIds(Table table) {
        return StreamSupport.stream(table.snapshots().spliterator(), false).map(Snapshot::snapshotId).collect(Collectors.toSet());
    }
}
