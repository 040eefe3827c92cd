package dev.cryo.executor.sql;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.enginesql.CapabilityMatrix;
import dev.cryo.enginesql.CatalogNames;
import dev.cryo.enginesql.EngineExecutionException;
import dev.cryo.enginesql.spark.SparkRenderer;
import dev.cryo.enginesql.spark.SparkSettings;
import dev.cryo.enginesql.trino.TrinoRenderer;
import dev.cryo.enginesql.trino.TrinoSettings;
import dev.cryo.executor.ExecutorErrorCode;
import dev.cryo.executor.engine.StepKey;
import dev.cryo.executor.engine.CommitTags;
import dev.cryo.executor.engine.EngineStepException;
import dev.cryo.executor.engine.StepRequest;
import dev.cryo.executor.engine.StepResult;
import dev.cryo.executor.engine.JobRecords;
import dev.cryo.executor.engine.OrphanBrakeReleases;
import dev.cryo.executor.engine.RunningJobs;
import dev.cryo.executor.iceberg.OperationDefaults;
import dev.cryo.executor.iceberg.OrphanRemovalSettings;
import dev.cryo.executor.iceberg.TableLoader;
import dev.cryo.executor.iceberg.TestTables;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.iceberg.fingerprint.Fingerprint;
import dev.cryo.iceberg.fingerprint.Fingerprints;
import dev.cryo.iceberg.fixtures.SampleTables;
import dev.cryo.iceberg.fixtures.TableWriter;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The SQL engine's own work around an engine's statements, with a hand-written client that
 * commits through the Iceberg API as Trino would (summary with {@code trino_query_id} and
 * {@code trino_user}): files before and after from the engine's commits, rows of the rewritten
 * partitions compared, failures mapped to error codes with their query ids, cancellation by job,
 * and the Trino commits of a crashed attempt found again. The stand-in exists for what a real
 * server cannot be made to do on demand — above all a rewrite that loses a row, which Cryo must
 * refuse; the same code runs against the real Trino 476 and Spark 4.0.1 in
 * {@code engines/EngineJobTest} ({@code -Pengines}).
 */
class SqlEngineTest {

    private static final CapabilityMatrix MATRIX = CapabilityMatrix.of(TrinoSettings.DEFAULT,
            SparkSettings.systemClock(CatalogNames.SAME));
    private static final OperationDefaults DEFAULTS = new OperationDefaults(Duration.ofDays(5), 1, OrphanRemovalSettings.DEFAULTS);

    private Table table;
    private List<Record> rows;
    private TableId id;
    private FakeEngineClient trino;
    private InMemoryStepLog log;
    private SqlEngine engine;

    @BeforeEach
    void table() {
        InMemoryCatalog catalog = new InMemoryCatalog();
        catalog.initialize("lake", Map.of());
        catalog.createNamespace(Namespace.of("maintenance"));
        String name = "events_" + UUID.randomUUID().toString().substring(0, 8);
        table = catalog.createTable(TableIdentifier.of("maintenance", name), SampleTables.EVENTS,
                PartitionSpec.builderFor(SampleTables.EVENTS).day("event_ts").build(),
                Map.of(TableProperties.FORMAT_VERSION, "2"));
        rows = TestTables.fill(table, 4, 30, 2, 71);
        id = TableId.of("lake", "maintenance", name);
        trino = new FakeEngineClient(Engine.TRINO);
        log = new InMemoryStepLog();
        engine = new SqlEngine(new TrinoRenderer(TrinoSettings.DEFAULT), trino, MATRIX,
                new TableLoader(CatalogRegistry.of(Map.of("lake", catalog))), DEFAULTS, records(log), Clock.systemUTC(), "cryo");
    }

    @Test
    void aRewriteIsMeasuredFromTheEnginesCommitAndItsRowsAreCompared() {
        DataFile first = TestTables.dataFiles(table).get(0);
        int day = first.partition().get(0, Integer.class);
        Fingerprint before = Fingerprints.ofTable(table);
        trino.behaviour = (sql, queryId, tag) -> {
            if (sql.contains("EXECUTE optimize(")) {
                appendOneRowTenDaysLater();     // a writer's commit lands while the engine works
                rewriteDay(day, queryId, false);
            }
        };

        StepResult result = engine.run(request("job-1", Operation.OPTIMIZE, first));

        assertThat(trino.statements).hasSize(2);
        assertThat(trino.statements.get(0)).startsWith("SET SESSION \"lake\".target_max_file_size");
        assertThat(result.before().dataFiles()).isEqualTo(4);
        assertThat(result.after().dataFiles()).isEqualTo(1);
        assertThat(result.before().records()).isEqualTo(result.after().records());
        table.refresh();
        assertThat(result.committedSnapshotId()).isEqualTo(table.currentSnapshot().snapshotId());
        assertThat(result.queryId()).isEqualTo("q-1,q-2");
        assertThat(result.message()).contains("trino ran 2 statements (query q-1,q-2)")
                .contains("rewrote 4 data files into 1").contains("fingerprint of the rewritten partitions equal");
        assertThat(Fingerprints.ofTable(table).rows()).isEqualTo(before.rows() + 1);
        assertThat(log.started("job-1")).singleElement().satisfies(step -> {
            assertThat(step.step()).isEqualTo(StepKey.chunk(Operation.OPTIMIZE, 0));
            assertThat(step.engine()).isEqualTo(Engine.TRINO);
        });
    }

    @Test
    void equalityDeleteFilesTheEnginesRewriteLeftBehindAreDroppedAndNewerOnesStay() {
        List<Integer> days = TestTables.dataFiles(table).stream().map(file -> file.partition().get(0, Integer.class))
                .distinct().sorted().toList();
        int rewritten = days.get(0);
        int other = days.get(1);
        TestTables.addEqualityDeletes(table, rows, rewritten, 0, 2);
        TestTables.addEqualityDeletes(table, rows, other, 0, 2);
        DataFile first = TestTables.dataFiles(table).stream()
                .filter(file -> file.partition().get(0, Integer.class) == rewritten).findFirst().orElseThrow();
        trino.behaviour = (sql, queryId, tag) -> {
            if (sql.contains("EXECUTE optimize(")) {
                // As Trino 476 does with a partition filter: the deletes applied, their files kept.
                rewriteDay(rewritten, queryId, false);
                // A writer's row delta right after: it applies to the new file and must stay.
                TestTables.addEqualityDeletes(table, rows, rewritten, 2, 1);
            }
        };
        Fingerprint before = Fingerprints.ofTable(table);
        assertThat(TestTables.liveDeleteFiles(table)).hasSize(2);

        StepResult result = engine.run(request("job-7", Operation.OPTIMIZE, first));

        table.refresh();
        List<DeleteFile> left = TestTables.liveDeleteFiles(table);
        assertThat(left).as("the other day's file and the writer's newer one").hasSize(2);
        assertThat(left).extracting(delete -> delete.partition().get(0, Integer.class))
                .containsExactlyInAnyOrder(rewritten, other);
        assertThat(left).filteredOn(delete -> delete.partition().get(0, Integer.class) == rewritten).singleElement()
                .satisfies(delete -> assertThat(delete.dataSequenceNumber())
                        .isEqualTo(table.currentSnapshot().sequenceNumber() - 1));
        assertThat(result.message()).contains("then Cryo dropped 1 equality delete files that applied to no live data file");
        assertThat(result.before().deleteFiles()).isEqualTo(1);
        assertThat(result.committedSnapshotId()).isEqualTo(table.currentSnapshot().snapshotId());
        assertThat(table.currentSnapshot().summary()).containsEntry(CommitTags.JOB_ID, "job-7")
                .containsEntry(CommitTags.CHUNK, "optimize:0");
        // Every row but the five the equality deletes name (two per day, and the writer's third).
        TableWriter writer = new TableWriter(table);
        List<Record> expected = new ArrayList<>();
        for (int day : days) {
            List<Record> ofDay = rows.stream().filter(row -> writer.partitionOf(row).get(0, Integer.class) == day).toList();
            expected.addAll(ofDay.subList(day == rewritten ? 3 : day == other ? 2 : 0, ofDay.size()));
        }
        assertThat(Fingerprints.ofTable(table)).isEqualTo(Fingerprints.of(table.schema(), expected));
        assertThat(before.rows()).isEqualTo(expected.size() + 1);
    }

    @Test
    void aRewriteThatLosesARowFailsLoudlyNamingEngineQueryAndSnapshots() {
        DataFile first = TestTables.dataFiles(table).get(0);
        int day = first.partition().get(0, Integer.class);
        long parent = table.currentSnapshot().snapshotId();
        trino.behaviour = (sql, queryId, tag) -> {
            if (sql.contains("EXECUTE optimize(")) {
                rewriteDay(day, queryId, true);
            }
        };

        assertThatThrownBy(() -> engine.run(request("job-2", Operation.OPTIMIZE, first)))
                .isInstanceOfSatisfying(EngineStepException.class, e -> {
                    assertThat(e.code()).isEqualTo(ExecutorErrorCode.FINGERPRINT_MISMATCH);
                    assertThat(e.queryId()).isEqualTo("q-1,q-2");
                })
                .hasMessageContaining("Cannot accept the rewrite of optimize:0 of " + id + " by trino (query q-1,q-2)")
                .hasMessageContaining("between snapshot " + parent + " (")
                .hasMessageContaining("roll it back to snapshot " + parent);
    }

    @Test
    void aTimeoutFailsWithEngineTimeoutAndTheQueryId() {
        DataFile first = TestTables.dataFiles(table).get(0);
        trino.behaviour = (sql, queryId, tag) -> {
            if (sql.contains("EXECUTE optimize(")) {
                throw new EngineExecutionException(Engine.TRINO, EngineExecutionException.Failure.TIMED_OUT, queryId,
                        List.of(), "Cannot run statement on Trino (timed out, query " + queryId + "): Query exceeded", null);
            }
        };

        assertThatThrownBy(() -> engine.run(request("job-3", Operation.OPTIMIZE, first)))
                .isInstanceOfSatisfying(EngineStepException.class, e -> {
                    assertThat(e.code()).isEqualTo(ExecutorErrorCode.ENGINE_TIMEOUT);
                    // the SET SESSION before it completed: both ids, so the audit trail finds the failed query
                    assertThat(e.queryId()).isEqualTo("q-1,q-2");
                })
                .hasMessageContaining("timed out, query q-2")
                .hasMessageContaining("raise cryo.executor.trino.query-timeout");
    }

    @Test
    void cancellingAJobCancelsOnlyThatJobsRunningStatement() {
        DataFile first = TestTables.dataFiles(table).get(0);
        trino.behaviour = (sql, queryId, tag) -> {
            if (sql.contains("EXECUTE optimize(")) {
                await().atMost(30, TimeUnit.SECONDS).until(() -> trino.cancelled.contains(tag));
                throw new EngineExecutionException(Engine.TRINO, EngineExecutionException.Failure.CANCELLED, queryId,
                        List.of(), "Cannot run statement on Trino (cancelled, query " + queryId + "): Query was canceled", null);
            }
        };
        CompletableFuture<StepResult> running = CompletableFuture.supplyAsync(() -> engine.run(request("job-4",
                Operation.OPTIMIZE, first)));
        await().atMost(30, TimeUnit.SECONDS).until(() -> !trino.running.isEmpty());

        engine.cancel("another-job");
        assertThat(trino.cancelled).isEmpty();
        engine.cancel("job-4");

        assertThatThrownBy(running::join).isInstanceOf(CompletionException.class)
                .cause().isInstanceOfSatisfying(EngineStepException.class,
                        e -> assertThat(e.code()).isEqualTo(ExecutorErrorCode.ENGINE_CANCELLED))
                .hasMessageContaining("cancelled, query q-2");
        assertThat(trino.cancelled).singleElement().asString().startsWith("job-4/optimize:0/");
    }

    @Test
    void aTrinoRewriteOfACrashedAttemptIsFoundInTheTableHistory() {
        DataFile first = TestTables.dataFiles(table).get(0);
        int day = first.partition().get(0, Integer.class);
        trino.behaviour = (sql, queryId, tag) -> {
            if (sql.contains("EXECUTE optimize(")) {
                rewriteDay(day, queryId, false);
            }
        };
        StepResult result = engine.run(request("job-5", Operation.OPTIMIZE, first));

        // The executor died before recording the result: only the step log and the table know.
        assertThat(engine.committedSteps(id, "job-5"))
                .containsExactly(Map.entry(StepKey.chunk(Operation.OPTIMIZE, 0), result.committedSnapshotId()));
        assertThat(engine.committedSteps(id, "another-job")).isEmpty();
    }

    @Test
    void sparkCommitsNameNoUserSoItsStepsRunAgainAfterACrash() {
        FakeEngineClient spark = new FakeEngineClient(Engine.SPARK);
        SqlEngine sparkEngine = new SqlEngine(new SparkRenderer(new SparkSettings(CatalogNames.SAME, Clock.systemUTC())),
                spark, MATRIX, new TableLoader(CatalogRegistry.of(Map.of())), DEFAULTS, records(log), Clock.systemUTC(), null);
        log.started("job-6", StepKey.chunk(Operation.OPTIMIZE, 0), Engine.SPARK, table.currentSnapshot().snapshotId());

        assertThat(sparkEngine.committedSteps(id, "job-6")).isEmpty();
        assertThat(sparkEngine.capabilities().supports(Operation.REWRITE_POSITION_DELETES)).isTrue();
        assertThat(engine.capabilities().supports(Operation.REWRITE_POSITION_DELETES)).isFalse();
    }

    @Test
    void aStepTheEngineCannotRenderIsRefusedWithItsReason() {
        DataFile first = TestTables.dataFiles(table).get(0);

        assertThatThrownBy(() -> engine.run(request("job-7", Operation.REWRITE_POSITION_DELETES, first)))
                .isInstanceOfSatisfying(dev.cryo.platform.error.CryoException.class,
                        e -> assertThat(e.code()).isEqualTo(ExecutorErrorCode.NOT_ROUTABLE))
                .hasMessageContaining("Cannot run rewrite_position_deletes:0 of " + id + " on trino (OPERATION_NOT_AVAILABLE)");
        assertThat(trino.statements).isEmpty();
    }

    @Test
    void aRewriteOfAFormatV3TableIsRefusedBeforeTrinoIsAsked() {
        table.updateProperties().set(TableProperties.FORMAT_VERSION, "3").commit();
        DataFile first = TestTables.dataFiles(table).get(0);

        assertThatThrownBy(() -> engine.run(request("job-8", Operation.OPTIMIZE, first)))
                .isInstanceOfSatisfying(dev.cryo.platform.error.CryoException.class,
                        e -> assertThat(e.code()).isEqualTo(ExecutorErrorCode.NOT_ROUTABLE))
                .hasMessage("Cannot run optimize:0 of " + id + " (format version 3) on trino (FORMAT_VERSION_NOT_SUPPORTED):"
                        + " Trino 476 refuses optimize on tables of format version 3 (\"OPTIMIZE is not supported for Iceberg"
                        + " table format version > 2\"); route it to another engine with cryo.executor.fallback-engines");
        assertThat(trino.statements).isEmpty();
        assertThat(log.started("job-8")).isEmpty();
    }

    // ------------------------------------------------------------------ helpers

    private StepRequest request(String jobId, Operation operation, DataFile file) {
        return new StepRequest(id, jobId, StepKey.chunk(operation, 0), List.of(PlannerPredicates.of(table, file)),
                new OperationParameters(8L * 1024 * 1024, null, null, null));
    }

    /** What an engine's optimize does to one day: its files replaced by one, committed as Trino commits. */
    private void rewriteDay(int day, String queryId, boolean loseARow) {
        table.refresh();
        List<DataFile> replaced = TestTables.dataFiles(table).stream()
                .filter(file -> file.partition().get(0, Integer.class) == day).toList();
        List<Record> rows = new ArrayList<>();
        try (CloseableIterable<Record> read = IcebergGenerics.read(table)
                .where(Expressions.equal(Expressions.day("event_ts"), day)).build()) {
            read.forEach(row -> rows.add(row.copy()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<DataFile> written = new TableWriter(table).writeDataFiles(loseARow ? rows.subList(1, rows.size()) : rows);
        // validated from the snapshot read, as engines commit: deletes committed before it are applied already
        RewriteFiles rewrite = table.newRewrite().validateFromSnapshot(table.currentSnapshot().snapshotId());
        replaced.forEach(rewrite::deleteFile);
        written.forEach(rewrite::addFile);
        rewrite.set("trino_query_id", queryId).set("trino_user", "cryo").commit();
    }

    private void appendOneRowTenDaysLater() {
        Record row = SampleTables.events(new Random(5), 9_000_000, 1, TestTables.START.plusDays(10),
                Duration.ofHours(1), 1, 5).get(0);
        new TableWriter(table).append(List.of(row));
    }

    private static JobRecords records(InMemoryStepLog log) {
        return new JobRecords(log, RunningJobs.NONE, OrphanBrakeReleases.NONE);
    }
}
