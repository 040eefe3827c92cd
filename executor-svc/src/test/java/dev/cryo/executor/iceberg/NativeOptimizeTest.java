package dev.cryo.executor.iceberg;

import dev.cryo.contracts.Operation;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.contracts.event.PartitionPredicate;
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
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The native optimize on real tables, format v2 and v3: exact partitions, deletes applied, fingerprints equal, tags. */
@NeedsInfrastructure(Infrastructure.Component.POSTGRESQL)
class NativeOptimizeTest {

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
    void optimizeBinPacksTheChunkPartitionsApplyingDeletesAndTagsTheCommit(int formatVersion) {
        Table table = tables.create("optimize_v" + formatVersion, formatVersion, spec -> spec.day("event_ts"));
        TestTables.fill(table, 8, 60, 3, 11);
        List<DataFile> files = TestTables.dataFiles(table);
        DataFile first = files.get(0);
        TableWriter writer = new TableWriter(table);
        writer.commitDeletes(writer.writePositionDeletes(first, 0, 5, 9));
        Record key = GenericRecord.create(SampleTables.EVENTS.select("id"));
        DataFile other = TestTables.samePartition(files, first).get(1);
        key.setField("id", readPositions(table, other, 0).get(0).getField("id"));
        writer.commitDeletes(writer.writeEqualityDeletes(other.partition(), List.of(key), "id"));
        table.refresh();
        Fingerprint before = Fingerprints.ofTable(table);
        DataFile untouchedPartition = files.stream().filter(file -> !file.partition().toString()
                .equals(first.partition().toString())).findFirst().orElseThrow();
        List<DataFile> untouched = TestTables.samePartition(files, untouchedPartition);
        String jobId = "job-" + UUID.randomUUID();

        StepResult result = engine.run(new StepRequest(tables.id(table), jobId, StepKey.chunk(Operation.OPTIMIZE, 0),
                List.of(TestTables.predicateOf(table, first)), OperationParameters.NONE));

        table.refresh();
        List<DataFile> after = TestTables.dataFiles(table);
        assertThat(Fingerprints.ofTable(table)).isEqualTo(before);
        assertThat(TestTables.samePartition(after, first)).hasSize(1);
        assertThat(TestTables.samePartition(after, untouchedPartition)).extracting(DataFile::location)
                .containsExactlyInAnyOrderElementsOf(untouched.stream().map(DataFile::location).toList());
        assertThat(TestTables.deleteFiles(table)).isEmpty();
        assertThat(result.before().dataFiles()).isEqualTo(8);
        assertThat(result.before().deleteFiles()).isEqualTo(2);
        assertThat(result.after().dataFiles()).isEqualTo(1);
        assertThat(result.after().records()).isEqualTo(result.before().records() - 4);
        assertThat(result.committedSnapshotId()).isEqualTo(table.currentSnapshot().snapshotId());
        assertThat(table.currentSnapshot().summary())
                .containsEntry(CommitTags.JOB_ID, jobId).containsEntry(CommitTags.CHUNK, "optimize:0");
        assertThat(engine.committedSteps(tables.id(table), jobId))
                .containsExactly(Map.entry(StepKey.chunk(Operation.OPTIMIZE, 0), result.committedSnapshotId()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"identity", "year", "month", "day", "hour", "bucket", "truncate"})
    void everyTransformAddressesExactlyItsPartition(String transform) {
        Table table = tables.create("transform_" + transform, 2, spec -> switch (transform) {
            case "identity" -> spec.identity("category");
            case "year" -> spec.year("event_ts");
            case "month" -> spec.month("event_ts");
            case "day" -> spec.day("event_ts");
            case "hour" -> spec.hour("event_ts");
            case "bucket" -> spec.bucket("id", 3);
            default -> spec.truncate("category", 1).identity("quantity");
        });
        int days = switch (transform) {
            case "year" -> 800;
            case "month" -> 70;
            case "hour" -> 1;
            default -> 3;
        };
        TestTables.fill(table, 4, 40, days, 21);
        List<DataFile> files = TestTables.dataFiles(table);
        DataFile target = files.stream().filter(file -> TestTables.samePartition(files, file).size() >= 2)
                .findFirst().orElseThrow();
        List<DataFile> others = files.stream().filter(file -> !TestTables.samePartition(files, target).contains(file)).toList();
        assertThat(others).isNotEmpty();
        Fingerprint before = Fingerprints.ofTable(table);

        engine.run(new StepRequest(tables.id(table), "job-" + UUID.randomUUID(), StepKey.chunk(Operation.OPTIMIZE, 0),
                List.of(TestTables.predicateOf(table, target)), OperationParameters.NONE));

        List<DataFile> after = TestTables.dataFiles(table);
        assertThat(Fingerprints.ofTable(table)).isEqualTo(before);
        assertThat(TestTables.samePartition(after, target)).hasSize(1);
        assertThat(after.stream().map(DataFile::location).collect(Collectors.toSet()))
                .containsAll(others.stream().map(DataFile::location).toList());
        assertThat(after).hasSize(others.size() + 1);
    }

    @Test
    void anEvolvedSpecIsAddressedBySpecIdAndValues() {
        Table table = tables.create("evolved", 2, spec -> spec.day("event_ts"));
        TestTables.fill(table, 3, 40, 2, 31);
        table.updateSpec().removeField("event_ts_day").addField(org.apache.iceberg.expressions.Expressions.month("event_ts"))
                .addField("category").commit();
        TestTables.fill(table, 3, 40, 2, 32);
        List<DataFile> files = TestTables.dataFiles(table);
        DataFile oldSpec = files.stream().filter(file -> file.specId() == 0).findFirst().orElseThrow();
        DataFile newSpec = files.stream().filter(file -> file.specId() == 1
                && TestTables.samePartition(files, file).size() >= 2).findFirst().orElseThrow();
        Fingerprint before = Fingerprints.ofTable(table);
        Set<String> untouched = files.stream().filter(file -> !TestTables.samePartition(files, oldSpec).contains(file)
                && !TestTables.samePartition(files, newSpec).contains(file)).map(DataFile::location).collect(Collectors.toSet());

        engine.run(new StepRequest(tables.id(table), "job-" + UUID.randomUUID(), StepKey.chunk(Operation.OPTIMIZE, 0),
                List.of(TestTables.predicateOf(table, oldSpec), TestTables.predicateOf(table, newSpec)),
                OperationParameters.NONE));

        List<DataFile> after = TestTables.dataFiles(table);
        assertThat(Fingerprints.ofTable(table)).isEqualTo(before);
        assertThat(TestTables.samePartition(after, oldSpec)).hasSize(1).allMatch(file -> file.specId() == 0);
        assertThat(TestTables.samePartition(after, newSpec)).hasSize(1).allMatch(file -> file.specId() == 1);
        assertThat(after.stream().map(DataFile::location).collect(Collectors.toSet())).containsAll(untouched);
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void aConcurrentRowDeleteOnAReplacedFileIsCarriedOntoTheNewFiles(int formatVersion) {
        Table table = tables.create("rebase_v" + formatVersion, formatVersion, spec -> spec.day("event_ts"));
        TestTables.fill(table, 5, 50, 1, 41);
        DataFile victimFile = TestTables.dataFiles(table).get(2);
        Fingerprint before = Fingerprints.ofTable(table);
        int[] commits = {0};
        ChunkRewriter rewriter = new ChunkRewriter(table, TestTables.REWRITE, WriteMemory.shareOfHeap(), 8L * 1024 * 1024,
                Map.of(CommitTags.JOB_ID, "job-rebase", CommitTags.CHUNK, "optimize:0"))
                .beforeEachCommit(() -> {
                    if (commits[0]++ == 0) {
                        // A MERGE lands between the rewrite's planning and its commit.
                        Table writerView = tables.registry.load(tables.id(table));
                        TableWriter writer = new TableWriter(writerView);
                        writer.commitDeletes(writer.writePositionDeletes(victimFile, 3, 4));
                    }
                });

        StepResult result = rewriter.rewrite(PartitionScope.of(table, List.of(TestTables.predicateOf(table, victimFile))),
                ChunkRewriter.Selection.BIN_PACK);

        table.refresh();
        Fingerprint deleted = Fingerprints.of(Fingerprints.schemaOf(table), tableRowsAt(table, victimFile, 3, 4));
        assertThat(Fingerprints.ofTable(table)).isEqualTo(before.minus(deleted));
        assertThat(Fingerprints.ofTable(table).rows()).isEqualTo(before.rows() - 2);
        assertThat(result.retries()).isEqualTo(1);
        assertThat(result.message()).contains("carried 2 concurrent row deletes");
        List<DeleteFile> deletes = TestTables.deleteFiles(table);
        assertThat(deletes).hasSize(1).allMatch(delete -> delete.content() == FileContent.POSITION_DELETES);
        assertThat(TestTables.dataFiles(table)).hasSize(1);
    }

    @Test
    void aPredicateThatDoesNotFitTheSpecIsRefusedWithItsReason() {
        Table table = tables.create("mismatch", 2, spec -> spec.day("event_ts"));
        TestTables.fill(table, 1, 10, 1, 51);
        PartitionPredicate predicate = TestTables.predicateOf(table, TestTables.dataFiles(table).get(0));
        PartitionPredicate wrongSpec = new PartitionPredicate(7, predicate.fields());

        assertThatThrownBy(() -> engine.run(new StepRequest(tables.id(table), "job-x", StepKey.chunk(Operation.OPTIMIZE, 0),
                List.of(wrongSpec), OperationParameters.NONE)))
                .isInstanceOf(CryoException.class)
                .hasMessageContaining("Cannot address partition: table").hasMessageContaining("has no partition spec 7");
    }

    /**
     * The rows at the given positions of a data file that stores no lineage (an appended file), as
     * a table fingerprint sees them: from format v3 on with the {@code _row_id} and
     * {@code _last_updated_sequence_number} that the spec has them inherit from the file's first row
     * id and data sequence number. {@code file}: as a scan plans it, with both.
     */
    static List<Record> tableRowsAt(Table table, DataFile file, long... positions) {
        List<Record> data = readPositions(table, file, positions);
        org.apache.iceberg.Schema schema = Fingerprints.schemaOf(table);
        if (schema.columns().size() == table.schema().columns().size()) {
            return data;
        }
        List<Record> rows = new java.util.ArrayList<>();
        long[] sorted = java.util.Arrays.stream(positions).sorted().toArray();
        for (int i = 0; i < data.size(); i++) {
            Record row = GenericRecord.create(schema);
            for (int column = 0; column < table.schema().columns().size(); column++) {
                row.set(column, data.get(i).get(column));
            }
            row.setField(org.apache.iceberg.MetadataColumns.ROW_ID.name(), file.firstRowId() + sorted[i]);
            row.setField(org.apache.iceberg.MetadataColumns.LAST_UPDATED_SEQUENCE_NUMBER.name(), file.dataSequenceNumber());
            rows.add(row);
        }
        return rows;
    }

    /** The rows at the given positions of a data file, read straight from the file. */
    static List<Record> readPositions(Table table, DataFile file, long... positions) {
        Set<Long> wanted = java.util.Arrays.stream(positions).boxed().collect(Collectors.toSet());
        List<Record> rows = new java.util.ArrayList<>();
        try (var read = ParquetRows.open(table.io(), file, table.schema())) {
            long position = 0;
            for (Record row : read) {
                if (wanted.contains(position)) {
                    rows.add(row.copy());
                }
                position++;
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return rows;
    }
}
