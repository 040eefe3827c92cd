package dev.cryo.executor.engines;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.Topics;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.JobAdmitted;
import dev.cryo.contracts.event.JobFinished;
import dev.cryo.contracts.event.JobOutcome;
import dev.cryo.contracts.event.JobStarted;
import dev.cryo.contracts.event.OperationFinished;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.contracts.event.OperationStatus;
import dev.cryo.contracts.event.PartitionPredicate;
import dev.cryo.contracts.kafka.KafkaEnvelopes;
import dev.cryo.executor.Jobs;
import dev.cryo.executor.WarehouseResource;
import dev.cryo.executor.engine.StepKey;
import dev.cryo.executor.iceberg.TestTables;
import dev.cryo.executor.sql.PlannerPredicates;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.iceberg.fingerprint.Fingerprint;
import dev.cryo.iceberg.fingerprint.Fingerprints;
import dev.cryo.iceberg.fixtures.SampleTables;
import dev.cryo.iceberg.fixtures.TableWriter;
import dev.cryo.testsupport.KafkaClientTest;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.reactive.messaging.kafka.KafkaClientService;
import jakarta.inject.Inject;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A whole job through Kafka on each real engine: JobAdmitted on {@code cryo.jobs.admitted.v1}
 * names Trino or Spark, the executor runs the seven operations of a fragmented, day-partitioned
 * table with equality and position deletes on that engine, and the results on
 * {@code cryo.jobs.results.v1} name the engine and query ids of every step. Files drop as planned,
 * the table's rows are the same before and after, and what the engine cannot do (Trino has no
 * rewrite_position_deletes; its optimize of a partition keeps equality delete files, so no
 * convert_deletes of partitions) is routed to native and reported.
 */
@Tag("engines")
@QuarkusTest
@TestProfile(EnginesProfile.class)
@QuarkusTestResource(WarehouseResource.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EngineJobTest extends KafkaClientTest {

    private static final String NAMESPACE = "cryo_ex_" + UUID.randomUUID().toString().substring(0, 8);

    // The test's own registry on the same catalog, as a writer would have.
    private final CatalogRegistry catalogs = CatalogRegistry.create(Map.of(EnginesProfile.CATALOG,
            EnginesProfile.catalogProperties()));
    @Inject
    KafkaClientService kafkaClients;

    @BeforeAll
    void namespace() {
        EnginesProfile.requireEnginesRunning();
        ((SupportsNamespaces) catalog()).createNamespace(Namespace.of(NAMESPACE));
        // This profile's consumer group starts at the end of the topic: send nothing before it has its partitions.
        await().atMost(2, TimeUnit.MINUTES).until(() -> !kafkaClients.getConsumer(Topics.JOBS_ADMITTED).getAssignments()
                .await().atMost(Duration.ofSeconds(30)).isEmpty());
    }

    @AfterAll
    void dropNamespace() throws IOException {
        Catalog catalog = catalog();
        for (TableIdentifier table : catalog.listTables(Namespace.of(NAMESPACE))) {
            catalog.dropTable(table, true);
        }
        ((SupportsNamespaces) catalog).dropNamespace(Namespace.of(NAMESPACE));
        catalogs.close();
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"TRINO", "SPARK"})
    void aFragmentedPartitionedTableGoesThroughAFullJobOnTheEngine(Engine engine) throws IOException {
        Table table = dayPartitionedTable(engine.id() + "_job");
        List<Record> rows = TestTables.fill(table, 5, 30, 3, 91);   // 5 commits x 3 days: 15 small files
        Map<Integer, PartitionPredicate> days = days(table);
        List<Integer> dayValues = new ArrayList<>(days.keySet());
        int positionDeleted = dayValues.get(0);
        int equalityDeleted = dayValues.get(1);
        int plain = dayValues.get(2);
        addPositionDeletes(table, positionDeleted, 0);
        addPositionDeletes(table, positionDeleted, 1);
        TestTables.addEqualityDeletes(table, rows, equalityDeleted, 0, 2);
        Fingerprint before = Fingerprints.ofTable(table);
        Snapshot startedFrom = table.currentSnapshot();
        Path dataDirectory = Path.of(URI.create(table.location() + "/data"));
        Path oldOrphan = Files.writeString(dataDirectory.resolve("orphan-old-" + UUID.randomUUID() + ".parquet"), "stray");
        Files.setLastModifiedTime(oldOrphan, FileTime.from(Instant.now().minus(Duration.ofDays(2))));
        Path freshOrphan = Files.writeString(dataDirectory.resolve("orphan-fresh-" + UUID.randomUUID() + ".parquet"), "stray");

        OperationParameters rewrite = new OperationParameters(8L * 1024 * 1024, null, null, null);
        TableId id = TableId.of(EnginesProfile.CATALOG, NAMESPACE, engine.id() + "_job");
        String jobId = "job-" + UUID.randomUUID();
        EventEnvelope<JobAdmitted> admitted = Jobs.admitted(id, jobId, engine, List.of(
                Jobs.chunked(Operation.CONVERT_DELETES, rewrite, List.of(List.of(days.get(equalityDeleted)))),
                Jobs.chunked(Operation.REWRITE_POSITION_DELETES, rewrite, List.of(List.of(days.get(positionDeleted)))),
                Jobs.chunked(Operation.OPTIMIZE, rewrite, List.of(List.of(days.get(positionDeleted), days.get(plain)),
                        List.of(days.get(equalityDeleted)))),
                Jobs.whole(Operation.COMPUTE_STATISTICS, OperationParameters.NONE),
                Jobs.whole(Operation.OPTIMIZE_MANIFESTS, OperationParameters.NONE),
                Jobs.whole(Operation.EXPIRE_SNAPSHOTS, new OperationParameters(null, Duration.ZERO, 1, null)),
                Jobs.whole(Operation.REMOVE_ORPHAN_FILES, new OperationParameters(null, null, null, Duration.ofDays(1)))));
        var mark = Jobs.markResults(kafka);
        Instant sent = Instant.now();

        kafka.send(KafkaEnvelopes.toRecord(admitted));

        List<EventEnvelope<CryoEvent>> results = Jobs.resultsUntilFinished(kafka, mark, jobId, Duration.ofMinutes(8));
        Duration took = Duration.between(sent, Instant.now());
        assertThat(results.get(0).data()).isInstanceOf(JobStarted.class);
        List<OperationFinished> steps = results.stream().map(EventEnvelope::data)
                .filter(OperationFinished.class::isInstance).map(OperationFinished.class::cast).toList();
        EngineReport.append(engine, took, steps);
        assertThat(steps).extracting(step -> new StepKey(step.operation(), step.chunkIndex()).toString())
                .containsExactly("convert_deletes:0", "rewrite_position_deletes:0", "optimize:0", "optimize:1",
                        "compute_statistics", "optimize_manifests", "expire_snapshots", "remove_orphan_files");
        assertThat(steps).allSatisfy(step -> assertThat(step.status()).as(step.operation() + ": " + step.message())
                .isEqualTo(OperationStatus.SUCCEEDED));
        for (OperationFinished step : steps) {
            if (engine == Engine.TRINO && step.operation() == Operation.REWRITE_POSITION_DELETES) {
                // Trino has no procedure for it: routed to the native engine, and the result says why.
                assertThat(step.engine()).isEqualTo(Engine.NATIVE);
                assertThat(step.routedReason()).startsWith("ran on native: trino cannot (OPERATION_NOT_AVAILABLE)");
                assertThat(step.queryId()).isNull();
            } else if (engine == Engine.TRINO && step.operation() == Operation.CONVERT_DELETES) {
                // Trino 476's optimize of a partition keeps its equality delete files: routed to native.
                assertThat(step.engine()).isEqualTo(Engine.NATIVE);
                assertThat(step.routedReason()).startsWith("ran on native: trino cannot (LEAVES_DELETE_FILES)");
                assertThat(step.queryId()).isNull();
            } else {
                assertThat(step.engine()).as(step.operation().id()).isEqualTo(engine);
                assertThat(step.routedReason()).as(step.operation().id()).isNull();
                assertThat(step.queryId()).as(step.operation().id()).isNotBlank();
            }
        }
        OperationFinished convert = steps.get(0);
        // Trino's convert runs on native, which rewrites only the files with rows the deletes remove.
        assertThat(convert.before().dataFiles()).isBetween(1L, 5L);
        assertThat(convert.after().dataFiles()).isEqualTo(1);
        assertThat(convert.before().deleteFiles()).as(convert.message()).isPositive();
        assertThat(convert.committedSnapshotId()).isNotNull();
        OperationFinished positionDeletes = steps.get(1);
        assertThat(positionDeletes.before().deleteFiles()).isGreaterThan(positionDeletes.after().deleteFiles());
        OperationFinished optimize = steps.get(2);
        assertThat(optimize.before().dataFiles()).isGreaterThanOrEqualTo(5);
        assertThat(optimize.after().dataFiles()).isLessThanOrEqualTo(2);
        assertThat(optimize.message()).contains("fingerprint of the rewritten partitions equal before and after");
        JobFinished finished = (JobFinished) results.get(results.size() - 1).data();
        assertThat(finished.outcome()).isEqualTo(JobOutcome.SUCCEEDED);
        assertThat(finished.engine()).isEqualTo(engine);

        table.refresh();
        assertThat(filesPerDay(table)).containsOnlyKeys(days.keySet()).allSatisfy((day, files) -> assertThat(files).isEqualTo(1));
        assertThat(TestTables.deleteFiles(table)).extracting(file -> file.content() + " " + file.location()).isEmpty();
        assertThat(Fingerprints.ofTable(table)).isEqualTo(before);
        // The engine wrote a Puffin file for the snapshot it analysed. It is not checked on the table
        // at the end: optimize_manifests commits after compute_statistics (the fixed order), and this
        // test's expiry (retention 0, keep the last 1) drops the analysed snapshot and, with it, its
        // statistics file, as Iceberg does for every expired snapshot.
        OperationFinished statistics = steps.get(4);
        assertThat(statistics.message()).as(statistics.message()).contains("statistics file");
        assertThat(statistics.after().dataBytes()).as("size of the statistics file").isPositive();
        // The snapshot the job started from, the rollback point of its rewrites, stays until a later job's
        // expiry; the engine measures the retention from its own clock, so Cryo gives it an hour more
        // whenever it keeps a snapshot, and this table's whole history is younger than that.
        OperationFinished expiry = steps.get(6);
        assertThat(expiry.message()).contains("kept snapshot " + startedFrom.snapshotId() + " (job " + jobId
                + " started from it)");
        assertThat(table.snapshot(startedFrom.snapshotId())).as("the job's start snapshot").isNotNull();
        assertThat(oldOrphan).doesNotExist();
        assertThat(freshOrphan).exists();
    }

    /**
     * An optimize-only job over partitions with equality deletes: the engine rewrites them (applying
     * the deletes) and no delete file stays behind, although Trino 476 keeps them after a
     * partition-filtered optimize: Cryo drops those that apply to no live data file any more.
     */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"TRINO", "SPARK"})
    void anOptimizeOfPartitionsWithEqualityDeletesLeavesNoDeleteFileBehind(Engine engine) {
        String name = engine.id() + "_eqdeletes";
        Table table = dayPartitionedTable(name);
        List<Record> rows = TestTables.fill(table, 4, 30, 3, 97);   // 4 commits x 3 days: 12 small files
        Map<Integer, PartitionPredicate> days = days(table);
        List<Integer> dayValues = new ArrayList<>(days.keySet());
        TestTables.addEqualityDeletes(table, rows, dayValues.get(0), 0, 2);
        TestTables.addEqualityDeletes(table, rows, dayValues.get(0), 2, 1);
        TestTables.addEqualityDeletes(table, rows, dayValues.get(1), 0, 2);
        assertThat(TestTables.liveDeleteFiles(table)).hasSize(3);
        Fingerprint before = Fingerprints.ofTable(table);

        TableId id = TableId.of(EnginesProfile.CATALOG, NAMESPACE, name);
        String jobId = "job-" + UUID.randomUUID();
        EventEnvelope<JobAdmitted> admitted = Jobs.admitted(id, jobId, engine, List.of(
                Jobs.chunked(Operation.OPTIMIZE, new OperationParameters(8L * 1024 * 1024, null, null, null),
                        List.of(List.of(days.get(dayValues.get(0)), days.get(dayValues.get(1)))))));
        var mark = Jobs.markResults(kafka);
        kafka.send(KafkaEnvelopes.toRecord(admitted));

        List<EventEnvelope<CryoEvent>> results = Jobs.resultsUntilFinished(kafka, mark, jobId, Duration.ofMinutes(5));
        OperationFinished optimize = results.stream().map(EventEnvelope::data).filter(OperationFinished.class::isInstance)
                .map(OperationFinished.class::cast).collect(java.util.stream.Collectors.toList()).get(0);
        assertThat(optimize.status()).as(optimize.message()).isEqualTo(OperationStatus.SUCCEEDED);
        assertThat(optimize.engine()).as(optimize.message()).isEqualTo(engine);
        assertThat(optimize.before().deleteFiles()).as(optimize.message()).isEqualTo(3);
        if (engine == Engine.TRINO) {
            assertThat(optimize.message()).contains("then Cryo dropped 3 equality delete files");
        }
        table.refresh();
        assertThat(TestTables.liveDeleteFiles(table)).extracting(file -> file.content() + " " + file.location()).isEmpty();
        assertThat(filesPerDay(table)).containsEntry(dayValues.get(0), 1).containsEntry(dayValues.get(1), 1);
        assertThat(Fingerprints.ofTable(table)).isEqualTo(before);
        assertThat(((JobFinished) results.get(results.size() - 1).data()).outcome()).isEqualTo(JobOutcome.SUCCEEDED);
    }

    /**
     * A table whose name has upper-case letters: Trino folds it to lower case and cannot find it, so
     * a job admitted to Trino runs every step on the next engine of the policy (native) and says why;
     * Spark keeps the case and runs it.
     */
    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"TRINO", "SPARK"})
    void aTableWithUpperCaseLettersInItsNameIsMaintainedWhereItCanBeNamed(Engine engine) throws Exception {
        String name = engine.id() + "_Mixed_Case";
        Table table = dayPartitionedTable(name);
        TestTables.fill(table, 4, 30, 2, 98);
        Fingerprint before = Fingerprints.ofTable(table);
        if (engine == Engine.TRINO) {
            java.util.Properties user = new java.util.Properties();
            user.setProperty("user", "someone-else");
            try (var connection = new io.trino.jdbc.TrinoDriver().connect(EnginesProfile.TRINO_URL, user);
                 var statement = connection.createStatement()) {
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> statement.executeQuery("SELECT count(*) FROM \""
                                + EnginesProfile.CATALOG + "\".\"" + NAMESPACE + "\".\"" + name + "\""))
                        .as("Trino's own answer").hasMessageContaining("does not exist");
            }
        }
        Map<Integer, PartitionPredicate> days = days(table);
        TableId id = TableId.of(EnginesProfile.CATALOG, NAMESPACE, name);
        String jobId = "job-" + UUID.randomUUID();
        var mark = Jobs.markResults(kafka);
        kafka.send(KafkaEnvelopes.toRecord(Jobs.admitted(id, jobId, engine, List.of(
                Jobs.chunked(Operation.OPTIMIZE, new OperationParameters(8L * 1024 * 1024, null, null, null),
                        List.of(new ArrayList<>(days.values()))),
                Jobs.whole(Operation.OPTIMIZE_MANIFESTS, OperationParameters.NONE)))));

        List<EventEnvelope<CryoEvent>> results = Jobs.resultsUntilFinished(kafka, mark, jobId, Duration.ofMinutes(5));
        List<OperationFinished> steps = results.stream().map(EventEnvelope::data).filter(OperationFinished.class::isInstance)
                .map(OperationFinished.class::cast).toList();
        assertThat(steps).hasSize(2).allSatisfy(step -> {
            assertThat(step.status()).as(step.message()).isEqualTo(OperationStatus.SUCCEEDED);
            if (engine == Engine.TRINO) {
                assertThat(step.engine()).isEqualTo(Engine.NATIVE);
                assertThat(step.routedReason()).startsWith("ran on native: trino cannot (TABLE_NAME_NOT_SUPPORTED)")
                        .contains("Trino folds schema and table names to lower case");
            } else {
                assertThat(step.engine()).isEqualTo(Engine.SPARK);
                assertThat(step.routedReason()).isNull();
            }
        });
        assertThat(((JobFinished) results.get(results.size() - 1).data()).outcome()).isEqualTo(JobOutcome.SUCCEEDED);
        table.refresh();
        assertThat(filesPerDay(table)).allSatisfy((day, files) -> assertThat(files).isEqualTo(1));
        assertThat(Fingerprints.ofTable(table)).isEqualTo(before);
    }

    // ------------------------------------------------------------------ helpers

    private Catalog catalog() {
        return catalogs.catalog(EnginesProfile.CATALOG);
    }

    /** A format-v2 events table partitioned by day, with an 8 MiB target file size. */
    private Table dayPartitionedTable(String name) {
        return catalog().createTable(TableIdentifier.of(NAMESPACE, name), SampleTables.EVENTS,
                PartitionSpec.builderFor(SampleTables.EVENTS).day("event_ts").build(),
                Map.of(TableProperties.FORMAT_VERSION, "2", TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
                        String.valueOf(8L * 1024 * 1024)));
    }

    /** Each day partition with its predicate as the planner writes it, in day order. */
    private static Map<Integer, PartitionPredicate> days(Table table) {
        Map<Integer, PartitionPredicate> days = new TreeMap<>();
        for (DataFile file : TestTables.dataFiles(table)) {
            days.putIfAbsent(file.partition().get(0, Integer.class), PlannerPredicates.of(table, file));
        }
        return days;
    }

    private static Map<Integer, Integer> filesPerDay(Table table) {
        Map<Integer, Integer> files = new LinkedHashMap<>();
        TestTables.dataFiles(table).forEach(file -> files.merge(file.partition().get(0, Integer.class), 1, Integer::sum));
        return files;
    }

    /** One position delete file per data file of the day, deleting the row at that position. */
    private static void addPositionDeletes(Table table, int day, long position) {
        TableWriter writer = new TableWriter(table);
        List<DeleteFile> deletes = TestTables.dataFiles(table).stream()
                .filter(file -> file.partition().get(0, Integer.class) == day)
                .map(file -> writer.writePositionDeletes(file, position)).toList();
        writer.commitDeletes(deletes.toArray(DeleteFile[]::new));
        table.refresh();
    }
}
