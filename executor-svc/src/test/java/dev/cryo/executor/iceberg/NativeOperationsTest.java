package dev.cryo.executor.iceberg;

import dev.cryo.contracts.Operation;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.executor.engine.StepKey;
import dev.cryo.executor.engine.CommitTags;
import dev.cryo.executor.engine.StepRequest;
import dev.cryo.executor.engine.StepResult;
import dev.cryo.iceberg.fingerprint.Fingerprint;
import dev.cryo.iceberg.fingerprint.Fingerprints;
import dev.cryo.iceberg.fixtures.SampleTables;
import dev.cryo.iceberg.fixtures.TableWriter;
import dev.cryo.platform.error.CryoException;
import dev.cryo.testsupport.Infrastructure;
import dev.cryo.testsupport.NeedsInfrastructure;
import org.apache.datasketches.memory.Memory;
import org.apache.datasketches.theta.CompactSketch;
import org.apache.iceberg.BlobMetadata;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ReachableFileUtil;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.GenericStatisticsFile;
import org.apache.iceberg.StatisticsFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.puffin.Puffin;
import org.apache.iceberg.puffin.PuffinReader;
import org.apache.iceberg.types.Conversions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The six other operations of the native engine on real tables, verified through Iceberg metadata and storage. */
@NeedsInfrastructure(Infrastructure.Component.POSTGRESQL)
class NativeOperationsTest {

    @TempDir
    static Path warehouse;
    static TestTables tables;
    static NativeEngine engine;

    @BeforeAll
    static void catalog() {
        tables = new TestTables(warehouse);
        engine = tables.engine(TestTables.settings());
    }

    @AfterAll
    static void close() throws Exception {
        tables.close();
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void convertDeletesRewritesTheFilesEqualityDeletesApplyToAndDropsThem(int formatVersion) {
        Table table = tables.create("convert_v" + formatVersion, formatVersion, spec -> spec.day("event_ts"));
        TestTables.fill(table, 4, 30, 1, 71);
        List<DataFile> files = TestTables.dataFiles(table);
        TableWriter writer = new TableWriter(table);
        Record key = GenericRecord.create(SampleTables.EVENTS.select("id"));
        key.setField("id", NativeOptimizeTest.readPositions(table, files.get(1), 2).get(0).getField("id"));
        writer.commitDeletes(writer.writeEqualityDeletes(files.get(1).partition(), List.of(key), "id"));
        Fingerprint before = Fingerprints.ofTable(table);
        assertThat(TestTables.deleteFiles(table)).extracting(DeleteFile::content).containsExactly(FileContent.EQUALITY_DELETES);

        StepResult result = run(table, StepKey.chunk(Operation.CONVERT_DELETES, 0),
                List.of(TestTables.predicateOf(table, files.get(0))), OperationParameters.NONE);

        assertThat(Fingerprints.ofTable(table)).isEqualTo(before);
        assertThat(TestTables.deleteFiles(table)).isEmpty();
        assertThat(result.before().deleteFiles()).isEqualTo(1);
        assertThat(table.currentSnapshot().summary()).containsEntry(CommitTags.CHUNK, "convert_deletes:0");
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void rewritePositionDeletesLeavesNoPositionDeleteInThePartition(int formatVersion) {
        Table table = tables.create("posdeletes_v" + formatVersion, formatVersion, spec -> spec.day("event_ts"));
        TestTables.fill(table, 4, 30, 1, 72);
        List<DataFile> files = TestTables.dataFiles(table);
        TableWriter writer = new TableWriter(table);
        writer.commitDeletes(writer.writePositionDeletes(files.get(0), 1, 2));
        writer.commitDeletes(writer.writePositionDeletes(files.get(2), 7));
        Fingerprint before = Fingerprints.ofTable(table);
        assertThat(TestTables.deleteFiles(table)).hasSize(2);
        // v3 deletion vectors name their data file; v2 position delete files apply to every file their path bounds allow.
        long filesWithDeletes = filesWithDeletes(table);
        assertThat(filesWithDeletes).isEqualTo(formatVersion >= 3 ? 2 : 4);

        StepResult result = run(table, StepKey.chunk(Operation.REWRITE_POSITION_DELETES, 0),
                List.of(TestTables.predicateOf(table, files.get(0))), OperationParameters.NONE);

        assertThat(Fingerprints.ofTable(table)).isEqualTo(before);
        assertThat(TestTables.deleteFiles(table)).isEmpty();
        assertThat(result.before().dataFiles()).isEqualTo(filesWithDeletes);
        assertThat(TestTables.dataFiles(table)).hasSize((int) (4 - filesWithDeletes + 1));
    }

    @Test
    void statisticsRegisterOnATableThatAWriterMovedOnWhileTheyWereComputed() {
        Table computing = tables.create("statistics_writer", 2, spec -> spec.day("event_ts"));
        TestTables.fill(computing, 1, 20, 1, 74);
        long described = computing.currentSnapshot().snapshotId();
        // a writer commits through its own handle: the computing handle's metadata is now stale
        TestTables.fill(tables.load(computing), 1, 20, 1, 75);
        StatisticsFile statistics = new GenericStatisticsFile(described, computing.location() + "/metadata/described.stats",
                0, 0, List.of());

        StatisticsWriter.register(computing, statistics);

        Table now = tables.load(computing);
        assertThat(now.statisticsFiles()).extracting(StatisticsFile::snapshotId).containsExactly(described);
        assertThat(now.snapshots()).hasSize(2);
    }

    @Test
    void statisticsOfASnapshotExpiredMeanwhileAreDeletedAndTheStepFails() throws IOException {
        Table computing = tables.create("statistics_expired", 2, spec -> spec.day("event_ts"));
        TestTables.fill(computing, 1, 20, 1, 76);
        long described = computing.currentSnapshot().snapshotId();
        String location = computing.location() + "/metadata/expired.stats";
        computing.io().newOutputFile(location).create().close();
        Table writer = tables.load(computing);
        TestTables.fill(writer, 1, 20, 1, 77);
        writer.expireSnapshots().expireSnapshotId(described).commit();

        assertThatThrownBy(() -> StatisticsWriter.register(computing,
                new GenericStatisticsFile(described, location, 0, 0, List.of())))
                .isInstanceOf(CryoException.class)
                .hasMessageContaining("expired while its statistics were computed");
        assertThat(computing.io().newInputFile(location).exists()).isFalse();
        assertThat(tables.load(computing).statisticsFiles()).isEmpty();
    }

    @Test
    void computeStatisticsRegistersAPuffinFileWithThetaSketchesPerColumn() throws IOException {
        Table table = tables.create("statistics", 2, spec -> spec.day("event_ts"));
        List<Record> rows = TestTables.fill(table, 3, 50, 2, 73);
        long distinctCategories = rows.stream().map(row -> row.getField("category")).distinct().count();

        run(table, StepKey.table(Operation.COMPUTE_STATISTICS), List.of(), OperationParameters.NONE);

        table.refresh();
        assertThat(table.statisticsFiles()).hasSize(1);
        StatisticsFile statistics = table.statisticsFiles().get(0);
        assertThat(statistics.snapshotId()).isEqualTo(table.currentSnapshot().snapshotId());
        assertThat(statistics.blobMetadata()).hasSize(6).allMatch(blob -> blob.type().equals("apache-datasketches-theta-v1"));
        Map<Integer, Long> ndv = new java.util.HashMap<>();
        statistics.blobMetadata().forEach(blob -> ndv.put(blob.fields().get(0), Long.parseLong(blob.properties().get("ndv"))));
        assertThat(ndv.get(1)).isEqualTo(150);
        assertThat(ndv.get(3)).isEqualTo(distinctCategories);
        try (PuffinReader reader = Puffin.read(table.io().newInputFile(statistics.path())).build()) {
            var blobs = reader.fileMetadata().blobs();
            for (var pair : reader.readAll(blobs)) {
                CompactSketch sketch = CompactSketch.wrap(Memory.wrap(bytes(pair.second())));
                assertThat(Math.round(sketch.getEstimate())).isEqualTo(Long.parseLong(pair.first().properties().get("ndv")));
            }
            // The sketch holds Iceberg's single-value serialization, as Spark and Trino feed theirs.
            var idBlob = blobs.stream().filter(blob -> blob.inputFields().equals(List.of(1))).findFirst().orElseThrow();
            var union = org.apache.datasketches.theta.SetOperation.builder().buildUnion();
            union.union(CompactSketch.wrap(Memory.wrap(bytes(reader.readAll(List.of(idBlob)).iterator().next().second()))));
            var probe = org.apache.datasketches.theta.UpdateSketch.builder().build();
            probe.update(Conversions.toByteBuffer(org.apache.iceberg.types.Types.LongType.get(), rows.get(0).getField("id")));
            union.union(probe);
            assertThat(Math.round(union.getResult().getEstimate())).isEqualTo(150);
        }
        assertThat(engine.committedSteps(tables.id(table), "job-stats")).containsKey(StepKey.table(Operation.COMPUTE_STATISTICS));
        assertThat(statistics.blobMetadata()).extracting(BlobMetadata::sourceSnapshotId)
                .containsOnly(table.currentSnapshot().snapshotId());
    }

    @Test
    void computeStatisticsAfterTheJobsOptimizeReadsOnlyTheFilesItDidNotRewriteAndSketchesTheSameValues() throws IOException {
        Table table = tables.create("statistics_after_optimize", 2, spec -> spec.day("event_ts"));
        TestTables.fill(table, 4, 40, 2, 75);
        // one partition rewritten, the other left as it is; a row deleted in the rewritten one
        List<DataFile> files = TestTables.dataFiles(table);
        DataFile rewritten = files.get(0);
        TableWriter writer = new TableWriter(table);
        writer.commitDeletes(writer.writePositionDeletes(rewritten, 3));
        Fingerprint before = Fingerprints.ofTable(table);
        String job = "job-stats-" + UUID.randomUUID();
        long otherFiles = TestTables.dataFiles(table).stream()
                .filter(file -> !file.partition().equals(rewritten.partition())).count();
        long otherRows = TestTables.dataFiles(table).stream()
                .filter(file -> !file.partition().equals(rewritten.partition())).mapToLong(DataFile::recordCount).sum();

        StepResult optimized = engine.run(new StepRequest(tables.id(table), job, StepKey.chunk(Operation.OPTIMIZE, 0),
                List.of(TestTables.predicateOf(table, rewritten)), OperationParameters.NONE, true));
        StepResult statistics = engine.run(new StepRequest(tables.id(table), job,
                StepKey.table(Operation.COMPUTE_STATISTICS), List.of(), OperationParameters.NONE, true));
        table.refresh();

        assertThat(optimized.committedSnapshotId()).isNotNull();
        assertThat(Fingerprints.ofTable(table)).isEqualTo(before);
        long liveRows = before.rows();
        assertThat(statistics.after().records()).isEqualTo(liveRows);
        assertThat(statistics.message()).contains("read " + otherRows + " rows of " + otherFiles + " files; the "
                + (liveRows - otherRows) + " rows of 1 file rewritten just before came from their read-back");
        // the same estimates as sketching every row of the snapshot
        ColumnSketches reference = new ColumnSketches(table.schema());
        ColumnSketches.Feeder feeder = reference.feeder(table.schema());
        try (var rows = org.apache.iceberg.data.IcebergGenerics.read(table).build()) {
            rows.forEach(feeder::add);
        }
        Map<Integer, Long> expected = new java.util.HashMap<>();
        reference.compact().forEach((field, sketch) -> expected.put(field, Math.round(sketch.getEstimate())));
        Map<Integer, Long> ndv = new java.util.HashMap<>();
        table.statisticsFiles().get(0).blobMetadata()
                .forEach(blob -> ndv.put(blob.fields().get(0), Long.parseLong(blob.properties().get("ndv"))));
        assertThat(ndv).isEqualTo(expected);
        assertThat(ndv.get(1)).isEqualTo(liveRows);
    }

    @Test
    void aRewriteOfAJobWithoutStatisticsKeepsNoSketchesAndTheStatisticsReadEveryRow() {
        Table table = tables.create("statistics_without_cache", 2, spec -> spec.day("event_ts"));
        TestTables.fill(table, 4, 40, 1, 76);
        DataFile file = TestTables.dataFiles(table).get(0);
        String job = "job-stats-" + UUID.randomUUID();

        engine.run(new StepRequest(tables.id(table), job, StepKey.chunk(Operation.OPTIMIZE, 0),
                List.of(TestTables.predicateOf(table, file)), OperationParameters.NONE, false));
        StepResult statistics = engine.run(new StepRequest(tables.id(table), job,
                StepKey.table(Operation.COMPUTE_STATISTICS), List.of(), OperationParameters.NONE, false));

        assertThat(statistics.message()).endsWith("(read 160 rows)");
    }

    @Test
    void optimizeManifestsClustersManifestsByPartition() {
        Table table = tables.create("manifests", 2, spec -> spec.day("event_ts"));
        table.updateProperties().set(TableProperties.MANIFEST_TARGET_SIZE_BYTES, "12000").commit();
        TestTables.fill(table, 16, 12, 8, 74);
        Fingerprint before = Fingerprints.ofTable(table);
        int manifestsBefore = table.currentSnapshot().dataManifests(table.io()).size();

        StepResult result = run(table, StepKey.table(Operation.OPTIMIZE_MANIFESTS), List.of(), OperationParameters.NONE);

        table.refresh();
        List<ManifestFile> manifests = table.currentSnapshot().dataManifests(table.io());
        assertThat(manifestsBefore).isEqualTo(16);
        assertThat(manifests.size()).isLessThan(manifestsBefore).isGreaterThan(1);
        assertThat(Fingerprints.ofTable(table)).isEqualTo(before);
        assertThat(table.currentSnapshot().summary()).containsEntry(CommitTags.CHUNK, "optimize_manifests");
        assertThat(result.committedSnapshotId()).isEqualTo(table.currentSnapshot().snapshotId());
        // Clustered: the day ranges of the manifests do not overlap.
        List<int[]> ranges = new ArrayList<>();
        for (ManifestFile manifest : manifests) {
            var summary = manifest.partitions().get(0);
            ranges.add(new int[] {Conversions.<Integer>fromByteBuffer(org.apache.iceberg.types.Types.DateType.get(),
                    summary.lowerBound()), Conversions.<Integer>fromByteBuffer(org.apache.iceberg.types.Types.DateType.get(),
                    summary.upperBound())});
        }
        ranges.sort((a, b) -> Integer.compare(a[0], b[0]));
        for (int i = 1; i < ranges.size(); i++) {
            assertThat(ranges.get(i)[0]).isGreaterThan(ranges.get(i - 1)[1]);
        }
    }

    @Test
    void expireSnapshotsKeepsTaggedSnapshotsAndDeletesOnlyFilesNoSnapshotNeeds() {
        Table table = tables.create("expire", 2, spec -> spec.day("event_ts"));
        TestTables.fill(table, 1, 20, 1, 75);
        Snapshot tagged = table.currentSnapshot();
        Set<String> taggedFiles = locations(TestTables.dataFiles(table));
        Fingerprint taggedFingerprint = Fingerprints.ofTable(table);
        table.manageSnapshots().createTag("audit-2026", tagged.snapshotId()).commit();
        TestTables.fill(table, 4, 20, 1, 76);
        Set<String> beforeOptimize = locations(TestTables.dataFiles(table));
        run(table, StepKey.chunk(Operation.OPTIMIZE, 0), List.of(TestTables.predicateOf(table,
                TestTables.dataFiles(table).get(0))), OperationParameters.NONE);
        Fingerprint current = Fingerprints.ofTable(table);

        StepResult result = run(table, StepKey.table(Operation.EXPIRE_SNAPSHOTS), List.of(),
                new OperationParameters(null, Duration.ZERO, 1, null));

        table.refresh();
        assertThat(table.snapshots()).extracting(Snapshot::snapshotId)
                .containsExactlyInAnyOrder(tagged.snapshotId(), table.currentSnapshot().snapshotId());
        assertThat(Fingerprints.of(table, tagged.snapshotId(), Expressions.alwaysTrue())).isEqualTo(taggedFingerprint);
        assertThat(Fingerprints.ofTable(table)).isEqualTo(current);
        for (String location : beforeOptimize) {
            assertThat(Files.exists(Path.of(URI.create(location)))).as(location).isEqualTo(taggedFiles.contains(location));
        }
        assertThat(result.before().dataFiles()).isEqualTo(4);
    }

    @Test
    void expireAndOrphanRemovalRefuseTablesWithGarbageCollectionDisabled() {
        Table table = tables.create("nogc", 2, spec -> spec.day("event_ts"));
        TestTables.fill(table, 2, 10, 1, 77);
        table.updateProperties().set(TableProperties.GC_ENABLED, "false").commit();

        assertThatThrownBy(() -> run(table, StepKey.table(Operation.EXPIRE_SNAPSHOTS), List.of(), OperationParameters.NONE))
                .isInstanceOf(CryoException.class)
                .hasMessageContaining("Cannot expire snapshots of").hasMessageContaining("gc.enabled=false");
        assertThatThrownBy(() -> run(table, StepKey.table(Operation.REMOVE_ORPHAN_FILES), List.of(), OperationParameters.NONE))
                .isInstanceOf(CryoException.class)
                .hasMessageContaining("Cannot remove orphan files of").hasMessageContaining("gc.enabled=false");
    }

    @Test
    void orphanRemovalDeletesOldOrphansKeepsYoungOnesAndEveryReferencedFile() throws IOException {
        Table table = tables.create("orphans", 2, spec -> spec.day("event_ts"));
        TestTables.fill(table, 3, 20, 1, 78);
        run(table, StepKey.chunk(Operation.OPTIMIZE, 0), List.of(TestTables.predicateOf(table,
                TestTables.dataFiles(table).get(0))), OperationParameters.NONE);
        run(table, StepKey.table(Operation.COMPUTE_STATISTICS), List.of(), OperationParameters.NONE);
        table.refresh();
        Fingerprint before = Fingerprints.ofTable(table);
        Path location = Path.of(URI.create(table.location()));
        Path oldOrphan = write(location.resolve("data/old-orphan.parquet"), Duration.ofDays(4));
        Path oldMetadataOrphan = write(location.resolve("metadata/old-orphan.avro"), Duration.ofDays(10));
        Path youngOrphan = write(location.resolve("data/young-orphan.parquet"), Duration.ofHours(2));
        Set<Path> referenced = referenced(table);
        // Referenced files that are old must stay whatever their age.
        for (Path file : referenced) {
            Files.setLastModifiedTime(file, FileTime.from(Instant.now().minus(Duration.ofDays(30))));
        }

        StepResult dryRun = engine.findOrphans(tables.id(table), null);
        assertThat(dryRun.files()).extracting(NativeOperationsTest::path)
                .containsExactlyInAnyOrder(oldOrphan, oldMetadataOrphan);
        assertThat(oldOrphan).exists();
        assertThat(oldMetadataOrphan).exists();

        StepResult removed = run(table, StepKey.table(Operation.REMOVE_ORPHAN_FILES), List.of(), OperationParameters.NONE);

        assertThat(removed.files()).isEqualTo(dryRun.files());
        assertThat(oldOrphan).doesNotExist();
        assertThat(oldMetadataOrphan).doesNotExist();
        assertThat(youngOrphan).exists();
        assertThat(referenced).allMatch(Files::exists, "every referenced file exists");
        table.refresh();
        assertThat(Fingerprints.ofTable(table)).isEqualTo(before);
        for (Snapshot snapshot : table.snapshots()) {
            Fingerprints.of(table, snapshot.snapshotId(), Expressions.alwaysTrue());
        }
        assertThatThrownBy(() -> run(table, StepKey.table(Operation.REMOVE_ORPHAN_FILES), List.of(),
                new OperationParameters(null, null, null, Duration.ofMinutes(30))))
                .isInstanceOf(CryoException.class)
                .hasMessageContaining("Cannot remove orphan files younger than PT30M");
    }

    // ------------------------------------------------------------------ helpers

    private static StepResult run(Table table, StepKey step, List<dev.cryo.contracts.event.PartitionPredicate> partitions,
                                  OperationParameters parameters) {
        StepResult result = engine.run(new StepRequest(tables.id(table), step.operation() == Operation.COMPUTE_STATISTICS
                ? "job-stats" : "job-" + UUID.randomUUID(), step, partitions, parameters));
        table.refresh();
        return result;
    }

    private static long filesWithDeletes(Table table) {
        try (var tasks = table.newScan().planFiles()) {
            long count = 0;
            for (var task : tasks) {
                count += task.deletes().isEmpty() ? 0 : 1;
            }
            return count;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static Set<Path> referenced(Table table) {
        Set<Path> files = new HashSet<>();
        for (Snapshot snapshot : table.snapshots()) {
            files.add(path(snapshot.manifestListLocation()));
            for (ManifestFile manifest : snapshot.allManifests(table.io())) {
                files.add(path(manifest.path()));
                try (var paths = org.apache.iceberg.ManifestFiles.readPaths(manifest, table.io())) {
                    paths.forEach(path -> files.add(path(path)));
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
        }
        ReachableFileUtil.metadataFileLocations(table, true).forEach(location -> files.add(path(location)));
        table.statisticsFiles().forEach(statistics -> files.add(path(statistics.path())));
        return files;
    }

    private static Path write(Path file, Duration age) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, "not referenced by any snapshot");
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().minus(age)));
        return file;
    }

    private static Path path(String location) {
        return Path.of(URI.create(location.startsWith("file:/") && !location.startsWith("file:///")
                ? "file://" + location.substring("file:".length()) : location));
    }

    private static Set<String> locations(List<DataFile> files) {
        Set<String> locations = new HashSet<>();
        files.forEach(file -> locations.add(file.location()));
        return locations;
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }
}
