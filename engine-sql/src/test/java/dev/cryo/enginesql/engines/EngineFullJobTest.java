package dev.cryo.enginesql.engines;

import dev.cryo.contracts.Check;
import dev.cryo.contracts.Engine;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.Chunk;
import dev.cryo.contracts.event.Estimate;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.contracts.event.PartitionPredicate;
import dev.cryo.contracts.event.PlannedOperation;
import dev.cryo.enginesql.CapabilityMatrix;
import dev.cryo.enginesql.CatalogNames;
import dev.cryo.enginesql.EngineRouter;
import dev.cryo.enginesql.ExecutedStatement;
import dev.cryo.enginesql.Limitation;
import dev.cryo.enginesql.Route;
import dev.cryo.enginesql.spark.SparkSettings;
import dev.cryo.enginesql.trino.TrinoSettings;
import dev.cryo.iceberg.fingerprint.Fingerprint;
import dev.cryo.iceberg.fingerprint.Fingerprints;
import dev.cryo.iceberg.fixtures.TableWriter;
import dev.cryo.testsupport.Infrastructure;
import dev.cryo.testsupport.NeedsInfrastructure;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A whole job on each real engine: one fragmented, day-partitioned table with equality and
 * position deletes goes through the seven operations in the fixed order, each routed by the
 * capability matrix with the policy [engine, native], rendered, and run on the engine. Every
 * step keeps the table's fingerprint and does what it is for; every executed step names its
 * engine and query ids, and what the engine cannot do is routed to native with the reason.
 */
@Tag("engines")
@NeedsInfrastructure(Infrastructure.Component.POSTGRESQL)
class EngineFullJobTest {

    private static final String NAMESPACE = "cryo_es_job_" + UUID.randomUUID().toString().substring(0, 8);
    private static final int DAY_30 = 19752;
    private static final int DAY_31 = 19753;

    record Step(Operation operation, Engine engine, String explanation, List<String> queryIds) {
    }

    @BeforeAll
    static void namespace() {
        RealEngines.requireRunning();
        RealEngines.createNamespace(NAMESPACE);
    }

    @AfterAll
    static void dropNamespace() {
        RealEngines.dropNamespace(NAMESPACE);
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"TRINO", "SPARK"})
    void aFragmentedTableGoesThroughAFullJob(Engine engine) throws IOException {
        String name = engine.id() + "_job";
        Table table = FragmentedTables.create(NAMESPACE, name, FragmentedTables.schema("category"), spec -> spec.day("event_ts"));
        FragmentedTables.fragment(table, 5, 0);
        addEqualityDeletes(table);
        addPositionDeletes(table, 0);
        addPositionDeletes(table, 1);
        TableId id = new TableId(RealEngines.CATALOG, List.of(NAMESPACE), name);
        EngineRouter router = new EngineRouter(CapabilityMatrix.of(TrinoSettings.DEFAULT, SparkSettings.systemClock(CatalogNames.SAME)));
        List<Engine> policy = EngineRouter.defaultPolicy(engine);
        Fingerprint fingerprint = Fingerprints.ofTable(table);
        List<Step> steps = new ArrayList<>();

        // convert_deletes: on Spark the equality-deleted day ends with no delete applying to its data
        // files; Trino routes it to the native engine, which runs in the executor (EngineJobTest there).
        assertThat(deletesApplyingTo(table, DAY_31, FileContent.EQUALITY_DELETES)).isPositive();
        Step convert = run(engine, router, policy, id, Operation.CONVERT_DELETES, chunk(table, DAY_31), parameters());
        steps.add(convert);
        if (engine == Engine.TRINO) {
            // Trino 476's optimize with a partition filter would keep the equality delete files.
            assertThat(convert.engine()).isEqualTo(Engine.NATIVE);
            assertThat(convert.explanation()).startsWith("ran on native: trino cannot (" + Limitation.LEAVES_DELETE_FILES);
        } else {
            assertThat(convert.engine()).isEqualTo(engine);
            assertThat(deletesApplyingTo(table, DAY_31, FileContent.EQUALITY_DELETES)).isZero();
        }
        assertThat(Fingerprints.ofTable(table)).isEqualTo(fingerprint);

        // rewrite_position_deletes: Spark compacts them; Trino has no procedure and routes to native.
        int positionDeletesBefore = deletesApplyingTo(table, DAY_30, FileContent.POSITION_DELETES);
        assertThat(positionDeletesBefore).isGreaterThanOrEqualTo(3);
        Step positionDeletes = run(engine, router, policy, id, Operation.REWRITE_POSITION_DELETES, chunk(table, DAY_30), parameters());
        steps.add(positionDeletes);
        if (engine == Engine.TRINO) {
            assertThat(positionDeletes.engine()).isEqualTo(Engine.NATIVE);
            assertThat(positionDeletes.explanation()).startsWith("ran on native: trino cannot (" + Limitation.OPERATION_NOT_AVAILABLE);
        } else {
            assertThat(positionDeletes.engine()).isEqualTo(Engine.SPARK);
            assertThat(deletesApplyingTo(table, DAY_30, FileContent.POSITION_DELETES)).isLessThan(positionDeletesBefore);
        }
        assertThat(Fingerprints.ofTable(table)).isEqualTo(fingerprint);

        // optimize: every day of the chunk ends with one data file.
        int filesBefore = FragmentedTables.dataFiles(table).size();
        Step optimize = run(engine, router, policy, id, Operation.OPTIMIZE, chunk(table, null), parameters());
        steps.add(optimize);
        Map<String, Integer> filesAfter = FragmentedTables.dataFilesByPartition(table);
        assertThat(filesAfter.values()).allSatisfy(files -> assertThat(files).isEqualTo(1));
        assertThat(FragmentedTables.dataFiles(table)).hasSizeLessThan(filesBefore);
        assertThat(Fingerprints.ofTable(table)).isEqualTo(fingerprint);

        // compute_statistics: a Puffin statistics file for the current snapshot.
        steps.add(run(engine, router, policy, id, Operation.COMPUTE_STATISTICS, null, parameters()));
        table.refresh();
        assertThat(table.statisticsFiles()).isNotEmpty();

        // optimize_manifests: no more manifests than before.
        int manifestsBefore = table.currentSnapshot().allManifests(table.io()).size();
        steps.add(run(engine, router, policy, id, Operation.OPTIMIZE_MANIFESTS, null, parameters()));
        table.refresh();
        assertThat(table.currentSnapshot().allManifests(table.io())).hasSizeLessThanOrEqualTo(manifestsBefore);
        assertThat(Fingerprints.ofTable(table)).isEqualTo(fingerprint);

        // expire_snapshots with no retention: older snapshots go, the current one stays.
        int snapshotsBefore = countSnapshots(table);
        long current = table.currentSnapshot().snapshotId();
        steps.add(run(engine, router, policy, id, Operation.EXPIRE_SNAPSHOTS, null,
                new OperationParameters(null, Duration.ZERO, null, null)));
        table.refresh();
        assertThat(countSnapshots(table)).isLessThan(snapshotsBefore);
        assertThat(table.currentSnapshot().snapshotId()).isEqualTo(current);
        assertThat(Fingerprints.ofTable(table)).isEqualTo(fingerprint);

        // remove_orphan_files with a one-day floor: a two-day-old stray file goes, a fresh one stays.
        Path dataDirectory = Path.of(URI.create(table.location() + "/data"));
        Files.createDirectories(dataDirectory);
        Path oldOrphan = Files.writeString(dataDirectory.resolve("orphan-old-" + UUID.randomUUID() + ".parquet"), "stray");
        Files.setLastModifiedTime(oldOrphan, FileTime.from(Instant.now().minus(Duration.ofDays(2))));
        Path freshOrphan = Files.writeString(dataDirectory.resolve("orphan-fresh-" + UUID.randomUUID() + ".parquet"), "stray");
        steps.add(run(engine, router, policy, id, Operation.REMOVE_ORPHAN_FILES, null,
                new OperationParameters(null, null, null, Duration.ofDays(1))));
        assertThat(oldOrphan).doesNotExist();
        assertThat(freshOrphan).exists();
        assertThat(Fingerprints.ofTable(table)).isEqualTo(fingerprint);

        assertThat(steps).extracting(Step::operation).containsExactly(Operation.values());
        assertThat(steps).filteredOn(step -> step.engine() == engine)
                .allSatisfy(step -> assertThat(step.queryIds()).isNotEmpty().allSatisfy(queryId -> assertThat(queryId).isNotBlank()));
        steps.forEach(step -> EngineReport.record(engine, "job " + step.operation() + " on " + step.engine().id()
                + " (" + step.explanation() + "), query ids " + step.queryIds()));
    }

    private static Step run(Engine engine, EngineRouter router, List<Engine> policy, TableId id, Operation operation,
                            Chunk chunk, OperationParameters parameters) {
        PlannedOperation planned = new PlannedOperation(operation, List.of(Check.SMALL_FILES),
                chunk == null ? List.of() : List.of(chunk), parameters, Estimate.ZERO);
        // FragmentedTables are of format version 2.
        Route route = router.route(policy, id, 2, planned, chunk);
        if (route.engine() != engine) {
            // The native engine runs inside the executor; here the route itself is what is proven.
            return new Step(operation, route.engine(), route.explanation(), List.of());
        }
        List<ExecutedStatement> executed = RealEngines.client(engine)
                .execute(operation.id() + "-" + UUID.randomUUID(), route.support().statements());
        return new Step(operation, engine, route.explanation(), executed.stream().map(ExecutedStatement::queryId).toList());
    }

    private static OperationParameters parameters() {
        return new OperationParameters(128L * 1024 * 1024, null, null, null);
    }

    /** The chunk of one day, or of every day when {@code day} is null, as the planner writes it. */
    private static Chunk chunk(Table table, Integer day) {
        table.refresh();
        Map<Integer, PartitionPredicate> partitions = new LinkedHashMap<>();
        for (DataFile file : FragmentedTables.dataFiles(table)) {
            Integer value = file.partition().get(0, Integer.class);
            if (day == null || day.equals(value)) {
                partitions.putIfAbsent(value, PlannedPartitions.of(table.specs().get(file.specId()), file.partition()));
            }
        }
        return new Chunk(0, List.copyOf(partitions.values()), Estimate.ZERO);
    }

    /** Equality deletes of two ids in day 2024-01-31, committed as a writer's row delta would. */
    private static void addEqualityDeletes(Table table) {
        TableWriter writer = new TableWriter(table);
        DataFile inDay = FragmentedTables.dataFiles(table).stream()
                .filter(file -> file.partition().get(0, Integer.class) == DAY_31).findFirst().orElseThrow();
        List<Record> keys = new ArrayList<>();
        for (long deletedId : new long[] {1, 102}) {
            Record key = GenericRecord.create(table.schema().select("id"));
            key.setField("id", deletedId);
            keys.add(key);
        }
        writer.commitDeletes(writer.writeEqualityDeletes(inDay.partition(), keys, "id"));
        table.refresh();
    }

    /**
     * One position delete file per data file of day 2024-01-30, deleting the row at that position.
     * Two such commits leave two delete files per data file: Iceberg 1.10 rewrites position
     * deletes file-scoped (one delete file per data file), so that is what the rewrite can compact.
     */
    private static void addPositionDeletes(Table table, long position) {
        TableWriter writer = new TableWriter(table);
        List<DeleteFile> deletes = FragmentedTables.dataFiles(table).stream()
                .filter(file -> file.partition().get(0, Integer.class) == DAY_30)
                .map(file -> writer.writePositionDeletes(file, position))
                .collect(Collectors.toList());
        writer.commitDeletes(deletes.toArray(DeleteFile[]::new));
        table.refresh();
    }

    /** Distinct delete files of that kind that apply to the day's live data files. */
    private static int deletesApplyingTo(Table table, int day, FileContent content) {
        table.refresh();
        Set<String> deletes = new HashSet<>();
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            for (FileScanTask task : tasks) {
                if (task.file().partition().get(0, Integer.class) == day) {
                    task.deletes().stream().filter(delete -> delete.content() == content).forEach(delete -> deletes.add(delete.location()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return deletes.size();
    }

    private static int countSnapshots(Table table) {
        int count = 0;
        for (var ignored : table.snapshots()) {
            count++;
        }
        return count;
    }
}
