package dev.cryo.executor.iceberg;

import dev.cryo.contracts.event.FileCounts;
import dev.cryo.executor.ExecutorErrorCode;
import dev.cryo.executor.engine.StepResult;
import dev.cryo.executor.iceberg.RewriteOutput.Run;
import dev.cryo.iceberg.fingerprint.Fingerprint;
import dev.cryo.iceberg.fingerprint.Fingerprints;
import dev.cryo.platform.error.CryoException;
import io.quarkus.logging.Log;
import org.apache.datasketches.theta.CompactSketch;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.GenericAppenderFactory;
import org.apache.iceberg.data.GenericDeleteFilter;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.PropertyUtil;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Rewrites the data files of a chunk's partitions, with their deletes applied, into files of the
 * target size, and commits them as one tagged snapshot.
 *
 * <p>Speed and memory: the chunk's partitions are rewritten several at once (one thread and one
 * Parquet writer each, {@link RewriteSettings#threads()}), and the new files are read back several
 * at once; every writer and reader first reserves a row group of heap from {@link WriteMemory}, so
 * the heap stays bounded however many partitions, jobs or rows there are.
 *
 * <p>Safety: rows are streamed file by file (a partition is never held in memory); the rows read
 * (at the start snapshot, deletes applied) and the rows in the new files (read back from storage)
 * must have equal fingerprints, or nothing is committed. The commit validates from the start
 * snapshot and keeps the start snapshot's data sequence number, so concurrent appends and
 * equality deletes stay correct.
 *
 * <p>Row lineage (format v3 and later): a row moved to a new file must keep its {@code _row_id}
 * and {@code _last_updated_sequence_number}, but a new file inherits neither (it gets a new first
 * row id and the commit's sequence number). So every row's lineage is read, inherited values
 * resolved, and written into the new files as explicit values; the fingerprints cover it, so a
 * row whose lineage changed fails the rewrite like a row whose value changed.
 *
 * <p>Winning against streaming writers: {@link RewriteCommit} carries rows deleted concurrently
 * onto the new files instead of throwing the rewrite away; only when a replaced file itself
 * disappeared (another rewrite won) is the chunk planned again, here, with backoff.
 *
 * <p>Speed: the chunk's partitions are written on {@link ParallelTasks}; a failure of one stops the
 * others and deletes every new file of the chunk.
 */
final class ChunkRewriter {

    /** Which files of a partition a rewrite takes. */
    enum Selection {
        /** Small, oversized and delete-carrying files (optimize). */
        BIN_PACK,
        /** Files that equality deletes apply to (convert_deletes). */
        EQUALITY_DELETES,
        /** Files that position deletes or deletion vectors apply to (rewrite_position_deletes). */
        POSITION_DELETES
    }

    private static final int SIZE_CHECK_ROWS = 1000;

    private final Table table;
    private final RewriteSettings settings;
    private final WriteMemory memory;
    private final long targetFileSizeBytes;
    private final Map<String, String> tags;
    private final ParallelTasks parallel;
    private Runnable beforeCommit = () -> { };
    private SketchCache sketches;

    ChunkRewriter(Table table, RewriteSettings settings, WriteMemory memory, long targetFileSizeBytes,
                  Map<String, String> tags) {
        this.table = table;
        this.settings = settings;
        this.memory = memory;
        this.targetFileSizeBytes = targetFileSizeBytes;
        this.tags = Map.copyOf(tags);
        this.parallel = new ParallelTasks(table.name(), settings.effectiveThreads());
    }

    /** Runs before every commit attempt: tests use it to commit as a concurrent writer would, at the worst moment. */
    ChunkRewriter beforeEachCommit(Runnable action) {
        this.beforeCommit = action;
        return this;
    }

    /**
     * Keeps the column sketches of the rows read back from a committed rewrite's new files in {@code cache}
     * (for a later compute_statistics of the same job); null keeps none.
     */
    ChunkRewriter sketchingInto(SketchCache cache) {
        this.sketches = cache;
        return this;
    }

    StepResult rewrite(PartitionScope scope, Selection selection) {
        int retries = 0;
        for (int replan = 0; ; replan++) {
            table.refresh();
            Snapshot start = table.currentSnapshot();
            if (start == null) {
                return StepResult.nothingToDo("the table has no snapshot");
            }
            long planStarted = System.nanoTime();
            RewritePlan plan = plan(start, scope, selection);
            if (plan.replaced().isEmpty()) {
                return StepResult.nothingToDo("no file of the chunk's partitions needs a rewrite at snapshot "
                        + start.snapshotId());
            }
            long writeStarted = System.nanoTime();
            RewriteOutput written = write(plan);
            long verifyStarted = System.nanoTime();
            Map<Integer, CompactSketch> readBack = verify(plan, written);
            long commitStarted = System.nanoTime();
            RewriteCommit.Attempt attempt = new RewriteCommit(table, settings, tags, beforeCommit).commit(plan, written);
            long committed = System.nanoTime();
            if (attempt.snapshotId() != null && readBack != null) {
                sketches.put(new SketchCache.Group(table.name(), table.schema().schemaId(), written.files().stream()
                        .map(DataFile::location).collect(Collectors.toSet()), readBack));
            }
            // Where the time went, so that an operator (and a benchmark) can tell a slow read from a slow commit.
            String phases = String.format(Locale.ROOT, "plan %.1f s, write %.1f s, read back %.1f s, commit %.1f s",
                    (writeStarted - planStarted) / 1e9, (verifyStarted - writeStarted) / 1e9,
                    (commitStarted - verifyStarted) / 1e9, (committed - commitStarted) / 1e9);
            retries += attempt.retries();
            if (attempt.snapshotId() != null) {
                FileCounts before = new FileCounts(plan.replaced().size(), plan.replaced().stream()
                        .mapToLong(task -> task.file().fileSizeInBytes()).sum(), attempt.removedDeletes(),
                        plan.replaced().stream().mapToLong(task -> task.file().recordCount()).sum());
                FileCounts after = new FileCounts(written.files().size(), written.files().stream()
                        .mapToLong(ContentFile::fileSizeInBytes).sum(), attempt.addedDeletes(), written.input().rows());
                int partitions = plan.replacedByPartition().size();
                String message = "rewrote " + plan.replaced().size() + " data files into " + written.files().size()
                        + (partitions > 1 ? " (" + partitions + " partitions, " + parallel.threadsFor(partitions) + " at once)" : "")
                        + ", removed " + attempt.removedDeletes() + " delete files; fingerprint " + written.input()
                        + " equal before and after" + (attempt.rebasedDeletes() > 0
                        ? "; carried " + attempt.rebasedDeletes() + " concurrent row deletes onto the new files" : "")
                        + " (" + phases + ")";
                return new StepResult(before, after, attempt.snapshotId(), retries, message, List.of());
            }
            if (replan >= settings.maxReplans()) {
                throw new CryoException(ExecutorErrorCode.COMMIT_CONFLICT, "Cannot commit the rewrite of "
                        + scope + " in " + table.name() + ": concurrent commits replaced its files " + (replan + 1)
                        + " times; raise cryo.executor.rewrite.max-replans or pause the competing rewrite");
            }
            retries++;
            Duration delay = settings.backoff().delay(replan + 1);
            Log.infof("%s: rewrite of %s lost to a concurrent rewrite, planning again in %s", table.name(), scope, delay);
            sleep(delay);
        }
    }

    // ---------------------------------------------------------------- planning

    private RewritePlan plan(Snapshot start, PartitionScope scope, Selection selection) {
        Map<Integer, List<FileScanTask>> byPartition = new TreeMap<>();
        try (CloseableIterable<FileScanTask> tasks = table.newScan().useSnapshot(start.snapshotId())
                .filter(scope.filter()).planFiles()) {
            for (FileScanTask task : tasks) {
                int partition = scope.indexOf(task.file());
                if (partition >= 0) {
                    byPartition.computeIfAbsent(partition, ignored -> new ArrayList<>()).add(task);
                }
            }
        } catch (IOException e) {
            throw TableFiles.storageFailure(table, "plan the chunk", e);
        }
        Map<Integer, List<FileScanTask>> replaced = new TreeMap<>();
        byPartition.forEach((partition, tasks) -> {
            List<FileScanTask> chosen = choose(tasks, selection);
            if (!chosen.isEmpty()) {
                replaced.put(partition, chosen);
            }
        });
        List<FileScanTask> all = replaced.values().stream().flatMap(List::stream).toList();
        return new RewritePlan(start, scope, all, replaced);
    }

    private List<FileScanTask> choose(List<FileScanTask> tasks, Selection selection) {
        return switch (selection) {
            case EQUALITY_DELETES -> tasks.stream().filter(hasDeletes(FileContent.EQUALITY_DELETES)).toList();
            case POSITION_DELETES -> tasks.stream().filter(hasDeletes(FileContent.POSITION_DELETES)).toList();
            case BIN_PACK -> {
                long min = (long) (targetFileSizeBytes * settings.minFileSizeRatio());
                long max = (long) (targetFileSizeBytes * settings.maxFileSizeRatio());
                List<FileScanTask> chosen = tasks.stream().filter(task -> !task.deletes().isEmpty()
                        || task.file().fileSizeInBytes() < min || task.file().fileSizeInBytes() > max).toList();
                boolean worthIt = chosen.size() >= 2 || chosen.stream().anyMatch(task -> !task.deletes().isEmpty()
                        || task.file().fileSizeInBytes() > max);
                yield worthIt ? chosen : List.of();
            }
        };
    }

    private static Predicate<FileScanTask> hasDeletes(FileContent content) {
        return task -> task.deletes().stream().anyMatch(delete -> delete.content() == content);
    }

    // ---------------------------------------------------------------- writing

    /** One partition's new files, in the order written; its runs name those files by their index here. */
    private record PartitionOutput(List<DataFile> files, Map<String, List<Run>> runs, Fingerprint input) {
    }

    /**
     * Writes every partition of the plan, several at once (one Parquet writer each, so a partition's
     * output is still written in order), and merges their outputs in partition order.
     */
    private RewriteOutput write(RewritePlan plan) {
        Schema schema = rowSchema();
        long reserve = rowGroupBytes() + WriteMemory.MARGIN_BYTES;
        AtomicBoolean stop = new AtomicBoolean();
        List<Callable<PartitionOutput>> partitions = plan.replacedByPartition().values().stream()
                .map(tasks -> (Callable<PartitionOutput>) () -> {
                    try (WriteMemory.Lease ignored = memory.reserve(reserve)) {
                        return writePartition(schema, tasks, stop);
                    }
                })
                .toList();
        List<PartitionOutput> outputs = parallel.run("rewrite", partitions, stop, output -> TableFiles.deleteQuietly(table, output.files()));

        List<DataFile> files = new ArrayList<>();
        Map<String, List<Run>> runs = new HashMap<>();
        Fingerprint input = Fingerprint.EMPTY;
        for (PartitionOutput output : outputs) {
            int offset = files.size();
            files.addAll(output.files());
            output.runs().forEach((location, fileRuns) -> runs.put(location, fileRuns.stream()
                    .map(run -> new Run(run.firstPosition(), run.length(), run.newFile() + offset, run.firstNewPosition()))
                    .toList()));
            input = input.plus(output.input());
        }
        return new RewriteOutput(List.copyOf(files), input, runs);
    }

    /**
     * Streams one partition's files, with their deletes applied, into new files of the target size.
     * {@code schema}: the columns written, {@link #rowSchema()}.
     */
    private PartitionOutput writePartition(Schema schema, List<FileScanTask> tasks, AtomicBoolean stop) {
        Schema requested = new Schema(concat(schema.columns(), MetadataColumns.ROW_POSITION));
        Types.StructType struct = schema.asStruct();
        int lastUpdated = indexOfOrNone(schema, MetadataColumns.LAST_UPDATED_SEQUENCE_NUMBER.fieldId());
        DataFile first = tasks.get(0).file();
        PartitionSpec spec = table.specs().get(first.specId());
        List<DataFile> files = new ArrayList<>();
        Map<String, List<Run>> runs = new HashMap<>();
        long rows = 0;
        long hash = 0;
        try {
            Output output = new Output(schema, spec, first.partition(), files);
            try {
                for (FileScanTask task : tasks) {
                    ParallelTasks.stopIfAsked(stop);
                    GenericDeleteFilter deletes = new GenericDeleteFilter(table.io(), task, table.schema(), requested);
                    Schema readSchema = deletes.requiredSchema();
                    int[] columns = columnIndexes(schema, readSchema);
                    int position = indexOf(readSchema, MetadataColumns.ROW_POSITION.fieldId());
                    String location = task.file().location();
                    // A file of a snapshot taken before the table's upgrade to v3 has no first row id, and
                    // Iceberg's reader then gives every row a null _last_updated_sequence_number; the spec
                    // gives it the file's data sequence number. Its null _row_id stays null: the commit
                    // assigns the row its first id, as every first snapshot after the upgrade does.
                    Long inheritedSequence = lastUpdated >= 0 && task.file().firstRowId() == null
                            ? task.file().dataSequenceNumber() : null;
                    List<Run> fileRuns = runs.computeIfAbsent(location, ignored -> new ArrayList<>());
                    // One record for every row: the Parquet writer takes its values as it is handed it.
                    Record copy = GenericRecord.create(schema);
                    try (CloseableIterable<Record> read = deletes.filter(ParquetRows.open(table.io(), task, readSchema))) {
                        for (Record row : read) {
                            for (int i = 0; i < columns.length; i++) {
                                copy.set(i, row.get(columns[i]));
                            }
                            if (inheritedSequence != null && copy.get(lastUpdated) == null) {
                                copy.set(lastUpdated, inheritedSequence);
                            }
                            rows++;
                            hash += Fingerprints.hashRow(struct, copy);
                            output.write(copy, fileRuns, (Long) row.get(position));
                            if (rows % SIZE_CHECK_ROWS == 0) {
                                ParallelTasks.stopIfAsked(stop);
                            }
                        }
                    } catch (UncheckedIOException | CryoException | ParallelTasks.Stopped e) {
                        throw e;
                    } catch (RuntimeException e) {
                        // Parquet reports a corrupt file with a bare RuntimeException ("footer is too large"):
                        // name the file, or an operator cannot tell which one to repair.
                        throw TableFiles.storageFailure(table, "read data file " + location, e);
                    }
                }
            } finally {
                output.close();
            }
        } catch (IOException | UncheckedIOException e) {
            TableFiles.deleteQuietly(table, files);
            throw TableFiles.storageFailure(table, "rewrite the chunk's files", e);
        } catch (RuntimeException e) {
            TableFiles.deleteQuietly(table, files);
            throw e;
        }
        return new PartitionOutput(List.copyOf(files), runs, new Fingerprint(rows, hash));
    }

    /**
     * The columns a rewrite reads, writes and fingerprints, those a table's fingerprint covers: the
     * table's, and from format v3 on the row lineage columns, written as explicit values so that
     * the new files do not re-assign them.
     */
    private Schema rowSchema() {
        return Fingerprints.schemaOf(table);
    }

    /** What a Parquet writer or reader of this table holds at most: one row group. */
    private long rowGroupBytes() {
        return PropertyUtil.propertyAsLong(table.properties(), TableProperties.PARQUET_ROW_GROUP_SIZE_BYTES,
                TableProperties.PARQUET_ROW_GROUP_SIZE_BYTES_DEFAULT);
    }

    /** Rolling Parquet output of one partition. */
    private final class Output {
        private final PartitionSpec spec;
        private final StructLike partition;
        private final List<DataFile> files;
        private final GenericAppenderFactory appenders;
        private final OutputFileFactory outputFiles;
        private DataWriter<Record> writer;
        private int fileIndex;
        private long fileRows;

        Output(Schema schema, PartitionSpec spec, StructLike partition, List<DataFile> files) {
            this.spec = spec;
            this.partition = spec.isUnpartitioned() ? null : partition;
            this.files = files;
            this.appenders = new GenericAppenderFactory(schema, spec);
            this.appenders.setAll(table.properties());
            this.outputFiles = TableFiles.outputFiles(table, spec.specId(), "cryo-rewrite");
        }

        void write(Record row, List<Run> fileRuns, long position) {
            if (writer == null) {
                // One writer is open at a time, so the next finished file takes this index.
                fileIndex = files.size();
                writer = appenders.newDataWriter(partition == null ? outputFiles.newOutputFile()
                        : outputFiles.newOutputFile(spec, partition), FileFormat.PARQUET, partition);
                fileRows = 0;
            }
            Run last = fileRuns.isEmpty() ? null : fileRuns.get(fileRuns.size() - 1);
            if (last != null && last.newFile() == fileIndex && last.firstPosition() + last.length() == position
                    && last.firstNewPosition() + last.length() == fileRows) {
                fileRuns.set(fileRuns.size() - 1, new Run(last.firstPosition(), last.length() + 1, fileIndex,
                        last.firstNewPosition()));
            } else {
                fileRuns.add(new Run(position, 1, fileIndex, fileRows));
            }
            writer.write(row);
            fileRows++;
            if (fileRows % SIZE_CHECK_ROWS == 0 && writer.length() >= targetFileSizeBytes) {
                roll();
            }
        }

        private void roll() {
            try {
                writer.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            files.add(writer.toDataFile());
            writer = null;
        }

        void close() {
            if (writer != null) {
                roll();
            }
        }
    }

    // ---------------------------------------------------------------- verifying

    /** What reading one new file back gave: its fingerprint, and its column sketches when kept. */
    private record ReadBack(Fingerprint fingerprint, Map<Integer, CompactSketch> sketches) {
    }

    /**
     * Reads every new file back (several at once) and compares the rows, with their lineage from
     * format v3 on, with the rows that went in. On a mismatch the new files are deleted and the
     * rewrite fails: nothing is committed. Returns the union of the files' column sketches when
     * {@link #sketchingInto} asked for them (the rows are read here anyway), else null.
     */
    Map<Integer, CompactSketch> verify(RewritePlan plan, RewriteOutput written) {
        Schema schema = rowSchema();
        long reserve = rowGroupBytes() + WriteMemory.MARGIN_BYTES;
        AtomicBoolean stop = new AtomicBoolean();
        boolean sketching = sketches != null;
        List<Callable<ReadBack>> reads = written.files().stream().map(file -> (Callable<ReadBack>) () -> {
            ParallelTasks.stopIfAsked(stop);
            ColumnSketches columns = sketching ? new ColumnSketches(table.schema()) : null;
            ColumnSketches.Feeder feeder = sketching ? columns.feeder(schema) : null;
            try (WriteMemory.Lease ignored = memory.reserve(reserve);
                 CloseableIterable<Record> rows = ParquetRows.open(table.io(), file, schema)) {
                Fingerprint ofFile = Fingerprints.of(schema, sketching ? CloseableIterable.transform(rows, row -> {
                    feeder.add(row);
                    return row;
                }) : rows);
                if (ofFile.rows() != file.recordCount()) {
                    throw mismatch(plan, "new file " + file.location() + " holds " + ofFile.rows()
                            + " rows but its metadata says " + file.recordCount());
                }
                return new ReadBack(ofFile, sketching ? columns.compact() : null);
            } catch (IOException e) {
                throw TableFiles.storageFailure(table, "read back the new files", e);
            }
        }).toList();
        Fingerprint after = Fingerprint.EMPTY;
        List<Map<Integer, CompactSketch>> parts = new ArrayList<>();
        try {
            for (ReadBack ofFile : parallel.run("read back", reads, stop, ignored -> { })) {
                after = after.plus(ofFile.fingerprint());
                if (ofFile.sketches() != null) {
                    parts.add(ofFile.sketches());
                }
            }
        } catch (RuntimeException | Error e) {
            TableFiles.deleteQuietly(table, written.files());
            throw e;
        }
        if (!after.equals(written.input())) {
            TableFiles.deleteQuietly(table, written.files());
            throw mismatch(plan, "rows read " + written.input() + ", rows written " + after);
        }
        return sketching ? ColumnSketches.union(parts) : null;
    }

    private CryoException mismatch(RewritePlan plan, String detail) {
        return new CryoException(ExecutorErrorCode.FINGERPRINT_MISMATCH, "Cannot commit the rewrite of " + plan.scope()
                + " in " + table.name() + ": the fingerprints differ (" + detail + "); nothing was committed");
    }

    // ---------------------------------------------------------------- helpers

    private static int[] columnIndexes(Schema schema, Schema readSchema) {
        int[] indexes = new int[schema.columns().size()];
        for (int i = 0; i < indexes.length; i++) {
            indexes[i] = indexOf(readSchema, schema.columns().get(i).fieldId());
        }
        return indexes;
    }

    private static int indexOf(Schema schema, int fieldId) {
        int index = indexOfOrNone(schema, fieldId);
        if (index < 0) {
            throw new IllegalStateException("column id " + fieldId + " is missing from the read schema " + schema);
        }
        return index;
    }

    private static int indexOfOrNone(Schema schema, int fieldId) {
        List<Types.NestedField> columns = schema.columns();
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).fieldId() == fieldId) {
                return i;
            }
        }
        return -1;
    }

    private static List<Types.NestedField> concat(List<Types.NestedField> columns, Types.NestedField extra) {
        List<Types.NestedField> all = new ArrayList<>(columns);
        all.add(extra);
        return all;
    }

    static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CryoException(ExecutorErrorCode.ENGINE_FAILURE, "Cannot wait to retry: interrupted", e);
        }
    }
}
