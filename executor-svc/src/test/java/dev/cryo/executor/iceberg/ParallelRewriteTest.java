package dev.cryo.executor.iceberg;

import dev.cryo.contracts.event.PartitionPredicate;
import dev.cryo.executor.ExecutorErrorCode;
import dev.cryo.executor.engine.CommitTags;
import dev.cryo.executor.engine.StepResult;
import dev.cryo.iceberg.fingerprint.Fingerprint;
import dev.cryo.iceberg.fingerprint.Fingerprints;
import dev.cryo.iceberg.fixtures.TableWriter;
import dev.cryo.platform.error.CryoException;
import dev.cryo.testsupport.Infrastructure;
import dev.cryo.testsupport.NeedsInfrastructure;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A chunk's partitions rewritten several at once (two threads, {@link TestTables#REWRITE}): each
 * partition's output merged in order, a concurrent delete carried onto the right new file, and a
 * partition that fails stopping the chunk without leaving a new file behind.
 */
@NeedsInfrastructure(Infrastructure.Component.POSTGRESQL)
class ParallelRewriteTest {

    @TempDir
    static Path warehouse;
    static TestTables tables;

    @BeforeAll
    static void catalog() {
        tables = new TestTables(warehouse);
    }

    @AfterAll
    static void close() throws Exception {
        tables.close();
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void severalPartitionsAtOnceAndAConcurrentDeleteLandsOnTheNewFileOfItsPartition(int formatVersion) {
        Table table = tables.create("parallel_v" + formatVersion, formatVersion, spec -> spec.day("event_ts"));
        TestTables.fill(table, 6, 80, 4, 61);
        Map<String, DataFile> onePerPartition = onePerPartition(table);
        assertThat(onePerPartition).hasSize(4);
        List<PartitionPredicate> chunk = onePerPartition.values().stream()
                .map(file -> TestTables.predicateOf(table, file)).toList();
        // a file of the last partition: its new file comes after the other partitions' in the merged output
        DataFile victim = TestTables.samePartition(TestTables.dataFiles(table), List.copyOf(onePerPartition.values()).get(3))
                .get(2);
        Fingerprint before = Fingerprints.ofTable(table);
        int[] commits = {0};
        ChunkRewriter rewriter = new ChunkRewriter(table, TestTables.REWRITE, WriteMemory.shareOfHeap(), 8L * 1024 * 1024,
                Map.of(CommitTags.JOB_ID, "job-parallel", CommitTags.CHUNK, "optimize:0"))
                .beforeEachCommit(() -> {
                    if (commits[0]++ == 0) {
                        Table writerView = tables.registry.load(tables.id(table));
                        TableWriter writer = new TableWriter(writerView);
                        writer.commitDeletes(writer.writePositionDeletes(victim, 3, 4));
                    }
                });

        StepResult result = rewriter.rewrite(PartitionScope.of(table, chunk), ChunkRewriter.Selection.BIN_PACK);

        table.refresh();
        Fingerprint deleted = Fingerprints.of(Fingerprints.schemaOf(table), NativeOptimizeTest.tableRowsAt(table, victim, 3, 4));
        assertThat(Fingerprints.ofTable(table)).isEqualTo(before.minus(deleted));
        assertThat(result.message()).contains("rewrote 24 data files into 4 (4 partitions, 2 at once)",
                "carried 2 concurrent row deletes");
        List<DataFile> after = TestTables.dataFiles(table);
        assertThat(after).hasSize(4);
        for (DataFile file : onePerPartition.values()) {
            assertThat(TestTables.samePartition(after, file)).as("new files of " + file.partition()).hasSize(1);
        }
        List<DeleteFile> deletes = TestTables.deleteFiles(table);
        assertThat(deletes).singleElement().satisfies(delete -> assertThat(delete.partition().toString())
                .isEqualTo(victim.partition().toString()));
    }

    @Test
    void aPartitionThatCannotBeReadFailsTheChunkAndNoNewFileIsLeftBehind() throws IOException {
        Table table = tables.create("parallel_corrupt", 2, spec -> spec.day("event_ts"));
        TestTables.fill(table, 5, 60, 4, 71);
        Map<String, DataFile> onePerPartition = onePerPartition(table);
        List<PartitionPredicate> chunk = onePerPartition.values().stream()
                .map(file -> TestTables.predicateOf(table, file)).toList();
        DataFile corrupt = TestTables.samePartition(TestTables.dataFiles(table), List.copyOf(onePerPartition.values()).get(1))
                .get(1);
        Files.write(Path.of(URI.create(corrupt.location())), new byte[]{'n', 'o', 't', ' ', 'p', 'a', 'r', 'q', 'u', 'e',
                't', '!', '!', '!', '!', '!'});
        long snapshot = table.currentSnapshot().snapshotId();
        Set<Path> filesBefore = filesUnder(table);
        ChunkRewriter rewriter = new ChunkRewriter(table, TestTables.REWRITE, WriteMemory.shareOfHeap(), 8L * 1024 * 1024,
                Map.of(CommitTags.JOB_ID, "job-corrupt", CommitTags.CHUNK, "optimize:0"));

        assertThatThrownBy(() -> rewriter.rewrite(PartitionScope.of(table, chunk), ChunkRewriter.Selection.BIN_PACK))
                .isInstanceOfSatisfying(CryoException.class, e -> assertThat(e.code())
                        .isEqualTo(ExecutorErrorCode.STORAGE_FAILURE))
                .hasMessageContaining("Cannot read data file " + corrupt.location());

        table.refresh();
        assertThat(table.currentSnapshot().snapshotId()).isEqualTo(snapshot);
        assertThat(filesUnder(table)).as("no new file of any partition is left behind").isEqualTo(filesBefore);
    }

    /** One data file of each partition, in partition order. */
    private static Map<String, DataFile> onePerPartition(Table table) {
        Map<String, DataFile> files = new LinkedHashMap<>();
        TestTables.dataFiles(table).stream().sorted(Comparator.comparing(file -> file.partition().toString()))
                .forEach(file -> files.putIfAbsent(file.partition().toString(), file));
        return files;
    }

    private static Set<Path> filesUnder(Table table) throws IOException {
        try (Stream<Path> walk = Files.walk(Path.of(URI.create(table.location())))) {
            return walk.filter(Files::isRegularFile).collect(Collectors.toSet());
        }
    }
}
