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
import dev.cryo.platform.error.CryoException;
import dev.cryo.testsupport.Infrastructure;
import dev.cryo.testsupport.NeedsInfrastructure;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A native rewrite whose commit fails in a way Iceberg does not call cleanable, through a real JDBC
 * catalog on the real PostgreSQL: the catalog's UPDATE commits and then the catalog's connections
 * are terminated by the server ({@code pg_terminate_backend}) before the answer is read, as a lost
 * network does; or an interrupt arrives after the commit landed, or before it was attempted. In every
 * case every file the table references exists afterwards and the table reads the same rows; a
 * commit that landed is found by its tags, at once or (while the catalog stays unreachable) by the
 * next attempt.
 */
@NeedsInfrastructure(Infrastructure.Component.POSTGRESQL)
class AmbiguousCommitTest {

    /** What the next commit through {@link FaultyJdbcCatalog} does. */
    enum Fault { NONE, LANDS_THEN_CONNECTIONS_TERMINATED, LANDS_THEN_INTERRUPTED, LANDS_THEN_CATALOG_UNREACHABLE,
        INTERRUPTED_BEFORE_ATTEMPT }

    static final String APPLICATION = "cryo-ambiguous-commit-" + UUID.randomUUID().toString().substring(0, 8);
    static volatile Fault next = Fault.NONE;
    /** While set, every read of table metadata fails as a catalog that cannot be reached. */
    static volatile boolean unreachable;

    @TempDir
    static Path warehouse;
    static CatalogRegistry registry;
    static final String CATALOG = "ambiguous_" + UUID.randomUUID().toString().substring(0, 8);
    static final Namespace NAMESPACE = Namespace.of("db");

    @BeforeAll
    static void start() {
        Map<String, String> properties = new HashMap<>(LocalCatalogs.jdbc(Infrastructure.jdbcUrl(), Infrastructure.dbUser(),
                Infrastructure.dbPassword(), "executor_ambiguous_test", warehouse));
        properties.remove("type");
        properties.put("catalog-impl", FaultyJdbcCatalog.class.getName());
        properties.put("jdbc.ApplicationName", APPLICATION);
        registry = CatalogRegistry.create(Map.of(CATALOG, properties));
        ((SupportsNamespaces) registry.catalog(CATALOG)).createNamespace(NAMESPACE);
    }

    @AfterAll
    static void stop() throws Exception {
        registry.close();
    }

    @AfterEach
    void disarm() {
        next = Fault.NONE;
        unreachable = false;
        Thread.interrupted();
    }

    /**
     * The catalog's sessions terminated by the server after its UPDATE, or an interrupt after the
     * commit landed: the rewrite reads the table again and finds its tagged snapshot.
     */
    @ParameterizedTest
    @EnumSource(value = Fault.class, names = {"LANDS_THEN_CONNECTIONS_TERMINATED", "LANDS_THEN_INTERRUPTED"})
    void aCommitThatLandedBeforeItsAnswerWasLostIsFoundAndKeepsItsFiles(Fault fault) {
        Table table = tableWithSmallFiles(fault.name().toLowerCase(java.util.Locale.ROOT));
        Fingerprint rows = Fingerprints.ofTable(table);
        String job = "job-" + UUID.randomUUID();

        next = fault;
        StepResult result = optimize(table, job);
        Thread.interrupted();

        table.refresh();
        assertThat(next).as("the fault fired").isEqualTo(Fault.NONE);
        assertThat(result.committedSnapshotId()).isEqualTo(table.currentSnapshot().snapshotId());
        assertThat(TestTables.dataFiles(table)).hasSize(1);
        assertEveryReferencedFileExists(table);
        assertThat(Fingerprints.ofTable(table)).isEqualTo(rows);
    }

    @Test
    void aCommitThatLandedWhileTheCatalogThenStaysUnreachableKeepsEveryFileAndTheNextAttemptFindsTheSnapshot() {
        Table table = tableWithSmallFiles("unreachable_after");
        Fingerprint rows = Fingerprints.ofTable(table);
        String job = "job-" + UUID.randomUUID();

        next = Fault.LANDS_THEN_CATALOG_UNREACHABLE;
        assertThatThrownBy(() -> optimize(table, job))
                .isInstanceOfSatisfying(CryoException.class, e -> assertThat(e.code()).isEqualTo(ExecutorErrorCode.COMMIT_STATE_UNKNOWN))
                .hasMessageContaining("Cannot tell whether the rewrite of")
                .hasMessageContaining("UncheckedSQLException: Database Connection failed")
                .hasMessageContaining("every file written for it is kept");
        unreachable = false;

        table.refresh();
        assertThat(TestTables.dataFiles(table)).hasSize(1);
        assertEveryReferencedFileExists(table);
        assertThat(Fingerprints.ofTable(table)).isEqualTo(rows);
        // The job's next attempt skips the step: the history shows its snapshot.
        assertThat(engine().committedSteps(id(table), job))
                .containsExactly(Map.entry(StepKey.chunk(Operation.OPTIMIZE, 0), table.currentSnapshot().snapshotId()));
    }

    @Test
    void anInterruptBeforeTheCommitKeepsTheWrittenFilesAndTheNextAttemptRewrites() {
        Table table = tableWithSmallFiles("interrupted_before");
        Fingerprint rows = Fingerprints.ofTable(table);
        long snapshotBefore = table.currentSnapshot().snapshotId();
        Set<String> filesBefore = filesUnder(table);
        String job = "job-" + UUID.randomUUID();

        next = Fault.INTERRUPTED_BEFORE_ATTEMPT;
        assertThatThrownBy(() -> optimize(table, job))
                .isInstanceOfSatisfying(CryoException.class, e -> assertThat(e.code()).isEqualTo(ExecutorErrorCode.COMMIT_STATE_UNKNOWN));
        Thread.interrupted();

        table.refresh();
        assertThat(table.currentSnapshot().snapshotId()).isEqualTo(snapshotBefore);
        assertEveryReferencedFileExists(table);
        assertThat(Fingerprints.ofTable(table)).isEqualTo(rows);
        // Cryo could not tell that nothing landed: what it wrote stays, an orphan to collect after the floor.
        assertThat(filesUnder(table)).containsAll(filesBefore).hasSizeGreaterThan(filesBefore.size());
        assertThat(engine().committedSteps(id(table), job)).isEmpty();

        StepResult again = optimize(table, job);
        table.refresh();
        assertThat(again.committedSnapshotId()).isEqualTo(table.currentSnapshot().snapshotId());
        assertEveryReferencedFileExists(table);
        assertThat(Fingerprints.ofTable(table)).isEqualTo(rows);
    }

    // ------------------------------------------------------------------ helpers

    private static Table tableWithSmallFiles(String name) {
        Table table = registry.catalog(CATALOG).createTable(TableIdentifier.of(NAMESPACE, name + "_"
                        + UUID.randomUUID().toString().substring(0, 6)), SampleTables.EVENTS,
                PartitionSpec.builderFor(SampleTables.EVENTS).day("event_ts").build(),
                Map.of(TableProperties.FORMAT_VERSION, "2"));
        TestTables.fill(table, 6, 30, 1, 5);
        return table;
    }

    private static StepResult optimize(Table table, String job) {
        DataFile file = TestTables.dataFiles(table).get(0);
        return engine().run(new StepRequest(id(table), job, StepKey.chunk(Operation.OPTIMIZE, 0),
                List.of(TestTables.predicateOf(table, file)), OperationParameters.NONE));
    }

    private static NativeEngine engine() {
        return new NativeEngine(registry, TestTables.settings(), JobRecords.NONE, Clock.systemUTC());
    }

    private static TableId id(Table table) {
        String[] parts = table.name().split("\\.");
        return TableId.of(CATALOG, NAMESPACE.toString(), parts[parts.length - 1]);
    }

    private static void assertEveryReferencedFileExists(Table table) {
        Set<String> missing = new HashSet<>();
        for (var snapshot : table.snapshots()) {
            if (!table.io().newInputFile(snapshot.manifestListLocation()).exists()) {
                missing.add(snapshot.manifestListLocation());
            }
            try (CloseableIterable<FileScanTask> tasks = table.newScan().useSnapshot(snapshot.snapshotId()).planFiles()) {
                for (FileScanTask task : tasks) {
                    if (!table.io().newInputFile(task.file().location()).exists()) {
                        missing.add(task.file().location());
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        assertThat(missing).as("referenced files that are gone").isEmpty();
    }

    private static Set<String> filesUnder(Table table) {
        Set<String> files = new HashSet<>();
        ((org.apache.iceberg.io.SupportsPrefixOperations) table.io()).listPrefix(table.location() + "/data/")
                .forEach(info -> files.add(info.location()));
        return files;
    }

    /** Ends every PostgreSQL session of the catalog, as a server restart or a cut network does. */
    static void terminateCatalogConnections() {
        try (Connection admin = DriverManager.getConnection(LocalCatalogs.withDatabase(Infrastructure.jdbcUrl(),
                "executor_ambiguous_test"), Infrastructure.dbUser(), Infrastructure.dbPassword());
             PreparedStatement terminate = admin.prepareStatement(
                     "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = ?")) {
            terminate.setString(1, APPLICATION);
            try (ResultSet row = terminate.executeQuery()) {
                row.next();
                assertThat(row.getLong(1)).as("catalog connections terminated").isPositive();
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
