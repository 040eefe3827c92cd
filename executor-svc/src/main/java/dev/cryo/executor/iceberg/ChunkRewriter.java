package dev.cryo.executor.iceberg;

import dev.cryo.contracts.event.FileCounts;
import dev.cryo.executor.ExecutorErrorCode;
import dev.cryo.executor.engine.StepResult;
import dev.cryo.iceberg.fingerprint.Fingerprint;
import dev.cryo.iceberg.fingerprint.Fingerprints;
import dev.cryo.platform.error.CryoException;
import io.quarkus.logging.Log;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.data.BaseDeleteLoader;
import org.apache.iceberg.data.GenericAppenderFactory;
import org.apache.iceberg.data.GenericDeleteFilter;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.BaseDVFileWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.PropertyUtil;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Predicate;

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
 * <p>Winning against streaming writers: when a concurrent writer deletes rows (position deletes
 * or deletion vectors) from a file being replaced, the commit fails validation. Instead of
 * throwing the rewrite away, the rewriter rebases it: every row it wrote came from a known
 * (file, position), so it maps the newly deleted positions onto the new files, writes them as
 * position deletes of the new files and commits again, validating from the newer snapshot. Only
 * when a replaced file itself disappeared (another rewrite won) is the chunk planned again.
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

    private static final AtomicInteger TASK_IDS = new AtomicInteger();
    private static final AtomicInteger POOL_IDS = new AtomicInteger();
    private static final int SIZE_CHECK_ROWS = 1000;

    private final Table table;
    private final RewriteSettings settings;
    private final WriteMemory memory;
    private final long targetFileSizeBytes;
    private final Map<String, String> tags;
    private Runnable beforeCommit = () -> { };

    ChunkRewriter(Table table, RewriteSettings settings, WriteMemory memory, long targetFileSizeBytes,
                  Map<String, String> tags) {
        this.table = table;
        this.settings = settings;
        this.memory = memory;
        this.targetFileSizeBytes = targetFileSizeBytes;
        this.tags = Map.copyOf(tags);
    }

    /** Runs before every commit attempt: tests use it to commit as a concurrent writer would, at the worst moment. */
    ChunkRewriter beforeEachCommit(Runnable action) {
        this.beforeCommit = action;
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
            Plan plan = plan(start, scope, selection);
            if (plan.replaced().isEmpty()) {
                return StepResult.nothingToDo("no file of the chunk's partitions needs a rewrite at snapshot "
                        + start.snapshotId());
            }
            Written written = write(plan);
            verify(plan, written);
            Attempt attempt = commit(plan, written);
            retries += attempt.retries();
            if (attempt.snapshotId() != null) {
                FileCounts before = new FileCounts(plan.replaced().size(), plan.replaced().stream()
                        .mapToLong(task -> task.file().fileSizeInBytes()).sum(), attempt.removedDeletes(),
                        plan.replaced().stream().mapToLong(task -> task.file().recordCount()).sum());
                FileCounts after = new FileCounts(written.files().size(), written.files().stream()
                        .mapToLong(ContentFile::fileSizeInBytes).sum(), attempt.addedDeletes(), written.input().rows());
                int partitions = plan.replacedByPartition().size();
                String message = "rewrote " + plan.replaced().size() + " data files into " + written.files().size()
                        + (partitions > 1 ? " (" + partitions + " partitions, " + threadsFor(partitions) + " at once)" : "")
                        + ", removed " + attempt.removedDeletes() + " delete files; fingerprint " + written.input()
                        + " equal before and after" + (attempt.rebasedDeletes() > 0
                        ? "; carried " + attempt.rebasedDeletes() + " concurrent row deletes onto the new files" : "");
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

    private record Plan(Snapshot start, PartitionScope scope, List<FileScanTask> replaced,
                        Map<Integer, List<FileScanTask>> replacedByPartition) {
    }

    private Plan plan(Snapshot start, PartitionScope scope, Selection selection) {
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
            throw storage("plan the chunk", e);
        }
        Map<Integer, List<FileScanTask>> replaced = new TreeMap<>();
        byPartition.forEach((partition, tasks) -> {
            List<FileScanTask> chosen = choose(tasks, selection);
            if (!chosen.isEmpty()) {
                replaced.put(partition, chosen);
            }
        });
        List<FileScanTask> all = replaced.values().stream().flatMap(List::stream).toList();
        return new Plan(start, scope, all, replaced);
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

    /** A run of consecutive positions of one input file that landed consecutively in one new file. */
    private record Run(long firstPosition, long length, int newFile, long firstNewPosition) {
    }

    private record Written(List<DataFile> files, Fingerprint input, Map<String, List<Run>> runs,
                           Map<Integer, PartitionSpec> specOfNewFile) {
    }

    /** One partition's new files, in the order written; its runs name those files by their index here. */
    private record PartitionOutput(List<DataFile> files, Map<String, List<Run>> runs, PartitionSpec spec,
                                   Fingerprint input) {
    }

    /**
     * Writes every partition of the plan, several at once (one Parquet writer each, so a partition's
     * output is still written in order), and merges their outputs in partition order.
     */
    private Written write(Plan plan) {
        Schema schema = table.schema();
        long reserve = rowGroupBytes() + WriteMemory.MARGIN_BYTES;
        AtomicBoolean stop = new AtomicBoolean();
        List<Callable<PartitionOutput>> partitions = plan.replacedByPartition().values().stream()
                .map(tasks -> (Callable<PartitionOutput>) () -> {
                    try (WriteMemory.Lease ignored = memory.reserve(reserve)) {
                        return writePartition(schema, tasks, stop);
                    }
                })
                .toList();
        List<PartitionOutput> outputs = inParallel("rewrite", partitions, stop, output -> deleteQuietly(output.files()));

        List<DataFile> files = new ArrayList<>();
        Map<String, List<Run>> runs = new HashMap<>();
        Map<Integer, PartitionSpec> specs = new HashMap<>();
        Fingerprint input = Fingerprint.EMPTY;
        for (PartitionOutput output : outputs) {
            int offset = files.size();
            for (int i = 0; i < output.files().size(); i++) {
                specs.put(offset + i, output.spec());
            }
            files.addAll(output.files());
            output.runs().forEach((location, fileRuns) -> runs.put(location, fileRuns.stream()
                    .map(run -> new Run(run.firstPosition(), run.length(), run.newFile() + offset, run.firstNewPosition()))
                    .toList()));
            input = input.plus(output.input());
        }
        return new Written(List.copyOf(files), input, runs, specs);
    }

    /** Streams one partition's files, with their deletes applied, into new files of the target size. */
    private PartitionOutput writePartition(Schema schema, List<FileScanTask> tasks, AtomicBoolean stop) {
        Schema requested = new Schema(concat(schema.columns(), MetadataColumns.ROW_POSITION));
        Types.StructType struct = schema.asStruct();
        DataFile first = tasks.get(0).file();
        PartitionSpec spec = table.specs().get(first.specId());
        List<DataFile> files = new ArrayList<>();
        Map<String, List<Run>> runs = new HashMap<>();
        long rows = 0;
        long hash = 0;
        try {
            Output output = new Output(spec, first.partition(), files);
            try {
                for (FileScanTask task : tasks) {
                    stopIfAsked(stop);
                    GenericDeleteFilter deletes = new GenericDeleteFilter(table.io(), task, schema, requested);
                    Schema readSchema = deletes.requiredSchema();
                    int[] columns = columnIndexes(schema, readSchema);
                    int position = indexOf(readSchema, MetadataColumns.ROW_POSITION.fieldId());
                    String location = task.file().location();
                    List<Run> fileRuns = runs.computeIfAbsent(location, ignored -> new ArrayList<>());
                    try (CloseableIterable<Record> read = deletes.filter(ParquetRows.open(table.io(), task, readSchema))) {
                        for (Record row : read) {
                            Record copy = GenericRecord.create(schema);
                            for (int i = 0; i < columns.length; i++) {
                                copy.set(i, row.get(columns[i]));
                            }
                            rows++;
                            hash += Fingerprints.hashRow(struct, copy);
                            output.write(copy, fileRuns, (Long) row.get(position));
                            if (rows % SIZE_CHECK_ROWS == 0) {
                                stopIfAsked(stop);
                            }
                        }
                    } catch (UncheckedIOException | CryoException | Stopped e) {
                        throw e;
                    } catch (RuntimeException e) {
                        // Parquet reports a corrupt file with a bare RuntimeException ("footer is too large"):
                        // name the file, or an operator cannot tell which one to repair.
                        throw storage("read data file " + location, e);
                    }
                }
            } finally {
                output.close();
            }
        } catch (IOException | UncheckedIOException e) {
            deleteQuietly(files);
            throw storage("rewrite the chunk's files", e);
        } catch (RuntimeException e) {
            deleteQuietly(files);
            throw e;
        }
        return new PartitionOutput(List.copyOf(files), runs, spec, new Fingerprint(rows, hash));
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

        Output(PartitionSpec spec, StructLike partition, List<DataFile> files) {
            this.spec = spec;
            this.partition = spec.isUnpartitioned() ? null : partition;
            this.files = files;
            this.appenders = new GenericAppenderFactory(table.schema(), spec);
            this.appenders.setAll(table.properties());
            this.outputFiles = OutputFileFactory.builderFor(table, spec.specId(), TASK_IDS.incrementAndGet())
                    .format(FileFormat.PARQUET).operationId("cryo-rewrite").build();
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

    /** Reads every new file back (several at once) and compares the rows with the rows that went in. */
    private void verify(Plan plan, Written written) {
        Schema schema = table.schema();
        long reserve = rowGroupBytes() + WriteMemory.MARGIN_BYTES;
        AtomicBoolean stop = new AtomicBoolean();
        List<Callable<Fingerprint>> reads = written.files().stream().map(file -> (Callable<Fingerprint>) () -> {
            stopIfAsked(stop);
            try (WriteMemory.Lease ignored = memory.reserve(reserve);
                 CloseableIterable<Record> rows = ParquetRows.open(table.io(), file, schema)) {
                Fingerprint ofFile = Fingerprints.of(schema, rows);
                if (ofFile.rows() != file.recordCount()) {
                    throw mismatch(plan, "new file " + file.location() + " holds " + ofFile.rows()
                            + " rows but its metadata says " + file.recordCount());
                }
                return ofFile;
            } catch (IOException e) {
                throw storage("read back the new files", e);
            }
        }).toList();
        Fingerprint after = Fingerprint.EMPTY;
        try {
            for (Fingerprint ofFile : inParallel("read back", reads, stop, ignored -> { })) {
                after = after.plus(ofFile);
            }
        } catch (RuntimeException | Error e) {
            deleteQuietly(written.files());
            throw e;
        }
        if (!after.equals(written.input())) {
            deleteQuietly(written.files());
            throw mismatch(plan, "rows read " + written.input() + ", rows written " + after);
        }
    }

    private CryoException mismatch(Plan plan, String detail) {
        return new CryoException(ExecutorErrorCode.FINGERPRINT_MISMATCH, "Cannot commit the rewrite of " + plan.scope()
                + " in " + table.name() + ": the fingerprints differ (" + detail + "); nothing was committed");
    }

    // ---------------------------------------------------------------- committing

    private record Attempt(Long snapshotId, int retries, int removedDeletes, int addedDeletes, long rebasedDeletes) {
    }

    private Attempt commit(Plan plan, Written written) {
        Set<String> replaced = new HashSet<>();
        plan.replaced().forEach(task -> replaced.add(task.file().location()));
        Set<String> appliedAtStart = new HashSet<>();
        plan.replaced().forEach(task -> task.deletes().forEach(delete -> appliedAtStart.add(delete.location())));
        long startSequence = plan.start().sequenceNumber();

        Snapshot base = plan.start();
        Map<String, FileScanTask> live = liveTasks(base, plan.scope());
        List<DeleteFile> rebased = List.of();
        long rebasedRows = 0;
        for (int attempt = 1; ; attempt++) {
            Removal removal = removal(live, replaced, appliedAtStart, plan.scope());
            List<DeleteFile> kept = keepForOtherFiles(removal.split(), replaced);
            RewriteFiles rewrite = table.newRewrite()
                    .validateFromSnapshot(base.snapshotId())
                    .dataSequenceNumber(startSequence);
            plan.replaced().forEach(task -> rewrite.deleteFile(task.file()));
            removal.removed().forEach(rewrite::deleteFile);
            removal.split().forEach(rewrite::deleteFile);
            written.files().forEach(rewrite::addFile);
            rebased.forEach(rewrite::addFile);
            kept.forEach(rewrite::addFile);
            tags.forEach(rewrite::set);
            try {
                beforeCommit.run();
                rewrite.commit();
                return new Attempt(committedSnapshot(), attempt - 1, removal.removed().size() + removal.split().size(),
                        rebased.size() + kept.size(), rebasedRows);
            } catch (CommitStateUnknownException e) {
                // The snapshot may exist: keep every file; the next attempt reads the table history.
                throw new CryoException(ExecutorErrorCode.COMMIT_STATE_UNKNOWN, "Cannot tell whether the rewrite of "
                        + plan.scope() + " in " + table.name() + " committed: " + e.getMessage()
                        + "; the next attempt checks the snapshot summaries", e);
            } catch (ValidationException e) {
                deleteQuietly(rebased);
                deleteQuietly(kept);
                table.refresh();
                Snapshot current = table.currentSnapshot();
                Map<String, FileScanTask> nowLive = liveTasks(current, plan.scope());
                if (!nowLive.keySet().containsAll(replaced) || attempt >= settings.maxCommitAttempts()) {
                    Log.infof("%s: rewrite of %s conflicts (%s); %s", table.name(), plan.scope(), e.getMessage(),
                            attempt >= settings.maxCommitAttempts() ? "out of commit attempts" : "a replaced file is gone");
                    deleteQuietly(written.files());
                    return new Attempt(null, attempt, 0, 0, 0);
                }
                Log.debugf("%s: rebasing the rewrite of %s onto snapshot %d: %s", table.name(), plan.scope(),
                        current.snapshotId(), e.getMessage());
                Rebase rebase = rebase(written, replaced, nowLive);
                rebased = rebase.deletes();
                rebasedRows = rebase.rows();
                base = current;
                live = nowLive;
                sleep(settings.backoff().delay(attempt).dividedBy(4));
            } catch (RuntimeException e) {
                deleteQuietly(written.files());
                deleteQuietly(rebased);
                deleteQuietly(kept);
                throw e;
            }
        }
    }

    private Long committedSnapshot() {
        Snapshot current = table.currentSnapshot();
        for (Snapshot snapshot = current; snapshot != null;
             snapshot = snapshot.parentId() == null ? null : table.snapshot(snapshot.parentId())) {
            Map<String, String> summary = snapshot.summary();
            if (summary != null && tags.entrySet().stream().allMatch(tag -> tag.getValue().equals(summary.get(tag.getKey())))) {
                return snapshot.snapshotId();
            }
        }
        throw new CryoException(ExecutorErrorCode.ENGINE_FAILURE, "Cannot find the snapshot just committed to "
                + table.name() + " with tags " + tags);
    }

    /** Live data files of the scope at a snapshot, by location, with the deletes that apply to them. */
    private Map<String, FileScanTask> liveTasks(Snapshot snapshot, PartitionScope scope) {
        Map<String, FileScanTask> live = new LinkedHashMap<>();
        try (CloseableIterable<FileScanTask> tasks = table.newScan().useSnapshot(snapshot.snapshotId())
                .filter(scope.filter()).planFiles()) {
            for (FileScanTask task : tasks) {
                if (scope.contains(task.file())) {
                    live.put(task.file().location(), task);
                }
            }
        } catch (IOException e) {
            throw storage("plan the chunk", e);
        }
        return live;
    }

    /**
     * Delete files to drop with the rewrite. {@code removed}: delete files that only replaced data
     * files still need — every live data file they apply to is replaced, they lie in an addressed
     * partition (never a global equality delete), and the rewrite applied them, either at the
     * start snapshot or, for position deletes that arrived since, by rebasing them onto the new
     * files. {@code split}: position delete files that also apply to data files this rewrite keeps;
     * they are replaced by a copy holding only the rows of those kept files (Iceberg only lets a
     * rewrite add delete files when it also replaces some, and the replaced files' rows of them
     * are applied already). Newer equality deletes stay: they apply to the new files through the
     * start snapshot's data sequence number.
     */
    private record Removal(List<DeleteFile> removed, List<DeleteFile> split) {
    }

    private static Removal removal(Map<String, FileScanTask> live, Set<String> replaced, Set<String> appliedAtStart,
                                   PartitionScope scope) {
        Map<String, DeleteFile> candidates = new LinkedHashMap<>();
        Set<String> blocked = new HashSet<>();
        for (FileScanTask task : live.values()) {
            boolean isReplaced = replaced.contains(task.file().location());
            for (DeleteFile delete : task.deletes()) {
                if (isReplaced) {
                    candidates.putIfAbsent(delete.location(), delete);
                } else {
                    blocked.add(delete.location());
                }
            }
        }
        List<DeleteFile> removed = new ArrayList<>();
        List<DeleteFile> split = new ArrayList<>();
        for (DeleteFile delete : candidates.values()) {
            boolean position = delete.content() == FileContent.POSITION_DELETES;
            boolean applied = appliedAtStart.contains(delete.location()) || position;
            if (!applied || !scope.contains(delete)) {
                continue;
            }
            if (!blocked.contains(delete.location())) {
                removed.add(delete);
            } else if (position && delete.format() == FileFormat.PARQUET) {
                split.add(delete);
            }
        }
        return new Removal(removed, split);
    }

    /** Copies of position delete files with only the rows of data files the rewrite keeps. */
    private List<DeleteFile> keepForOtherFiles(List<DeleteFile> deletes, Set<String> replaced) {
        List<DeleteFile> copies = new ArrayList<>();
        Schema pathAndPosition = org.apache.iceberg.io.DeleteSchemaUtil.pathPosSchema();
        OutputFileFactory outputFiles = OutputFileFactory.builderFor(table, 0, TASK_IDS.incrementAndGet())
                .format(FileFormat.PARQUET).operationId("cryo-keep").build();
        try {
            for (DeleteFile delete : deletes) {
                PartitionSpec spec = table.specs().get(delete.specId());
                StructLike partition = spec.isUnpartitioned() ? null : delete.partition();
                GenericAppenderFactory appenders = new GenericAppenderFactory(table.schema(), spec);
                appenders.setAll(table.properties());
                PositionDeleteWriter<Record> writer = appenders.newPosDeleteWriter(partition == null
                        ? outputFiles.newOutputFile() : outputFiles.newOutputFile(spec, partition), FileFormat.PARQUET,
                        partition);
                long kept = 0;
                try (writer; CloseableIterable<Record> rows = ParquetRows.open(table.io(), delete, pathAndPosition)) {
                    PositionDelete<Record> row = PositionDelete.create();
                    for (Record entry : rows) {
                        String path = entry.get(0).toString();
                        if (!replaced.contains(path)) {
                            writer.write(row.set(path, (Long) entry.get(1), null));
                            kept++;
                        }
                    }
                }
                if (kept > 0) {
                    copies.add(writer.toDeleteFile());
                } else {
                    table.io().deleteFile(writer.toDeleteFile().location());
                }
            }
            return copies;
        } catch (IOException e) {
            deleteQuietly(copies);
            throw storage("copy position deletes of kept data files", e);
        }
    }

    // ---------------------------------------------------------------- rebasing

    private record Rebase(List<DeleteFile> deletes, long rows) {
    }

    /**
     * Position deletes that now apply to replaced files, mapped onto the new files. Positions
     * deleted at the start snapshot were never written and find no run; every other deleted
     * position finds exactly one.
     */
    private Rebase rebase(Written written, Set<String> replaced, Map<String, FileScanTask> live) {
        BaseDeleteLoader loader = new BaseDeleteLoader(delete -> table.io().newInputFile(delete.location()));
        Map<Integer, List<Long>> deletedByNewFile = new TreeMap<>();
        long rows = 0;
        for (String location : replaced) {
            List<DeleteFile> positionDeletes = live.get(location).deletes().stream()
                    .filter(delete -> delete.content() == FileContent.POSITION_DELETES).toList();
            List<Run> runs = written.runs().get(location);
            if (positionDeletes.isEmpty() || runs == null || runs.isEmpty()) {
                continue;
            }
            PositionDeleteIndex deleted = loader.loadPositionDeletes(positionDeletes, location);
            long[] counter = {0};
            deleted.forEach(position -> {
                Run run = find(runs, position);
                if (run != null) {
                    deletedByNewFile.computeIfAbsent(run.newFile(), ignored -> new ArrayList<>())
                            .add(run.firstNewPosition() + (position - run.firstPosition()));
                    counter[0]++;
                }
            });
            rows += counter[0];
        }
        if (deletedByNewFile.isEmpty()) {
            return new Rebase(List.of(), 0);
        }
        return new Rebase(writePositionDeletes(written, deletedByNewFile), rows);
    }

    private static Run find(List<Run> runs, long position) {
        int low = 0;
        int high = runs.size() - 1;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            Run run = runs.get(middle);
            if (position < run.firstPosition()) {
                high = middle - 1;
            } else if (position >= run.firstPosition() + run.length()) {
                low = middle + 1;
            } else {
                return run;
            }
        }
        return null;
    }

    private List<DeleteFile> writePositionDeletes(Written written, Map<Integer, List<Long>> deletedByNewFile) {
        OutputFileFactory outputFiles = OutputFileFactory.builderFor(table, 0, TASK_IDS.incrementAndGet())
                .format(FileFormat.PARQUET).operationId("cryo-rebase").build();
        List<DeleteFile> deletes = new ArrayList<>();
        try {
            if (TableUtil.formatVersion(table) >= 3) {
                BaseDVFileWriter writer = new BaseDVFileWriter(outputFiles, path -> null);
                try (writer) {
                    deletedByNewFile.forEach((index, positions) -> {
                        DataFile file = written.files().get(index);
                        PartitionSpec spec = table.specs().get(file.specId());
                        positions.forEach(position -> writer.delete(file.location(), position, spec,
                                spec.isUnpartitioned() ? null : file.partition()));
                    });
                }
                deletes.addAll(writer.result().deleteFiles());
                return deletes;
            }
            // Format v2: one position delete file per new data file, rows sorted by position.
            for (Map.Entry<Integer, List<Long>> entry : deletedByNewFile.entrySet()) {
                DataFile file = written.files().get(entry.getKey());
                PartitionSpec spec = table.specs().get(file.specId());
                StructLike partition = spec.isUnpartitioned() ? null : file.partition();
                GenericAppenderFactory appenders = new GenericAppenderFactory(table.schema(), spec);
                appenders.setAll(table.properties());
                PositionDeleteWriter<Record> writer = appenders.newPosDeleteWriter(partition == null
                        ? outputFiles.newOutputFile() : outputFiles.newOutputFile(spec, partition), FileFormat.PARQUET, partition);
                try (writer) {
                    PositionDelete<Record> delete = PositionDelete.create();
                    entry.getValue().stream().sorted(Comparator.naturalOrder())
                            .forEach(position -> writer.write(delete.set(file.location(), position, null)));
                }
                deletes.add(writer.toDeleteFile());
            }
            return deletes;
        } catch (IOException e) {
            deleteQuietly(deletes);
            throw storage("write the rebased position deletes", e);
        }
    }

    // ---------------------------------------------------------------- helpers

    /** Thrown by a task that stops because another one failed; never the error reported. */
    private static final class Stopped extends RuntimeException {
        Stopped() {
            super("stopped: another task of the rewrite failed", null, false, false);
        }
    }

    private static void stopIfAsked(AtomicBoolean stop) {
        if (stop.get()) {
            throw new Stopped();
        }
    }

    /**
     * Runs {@code tasks} on up to {@link RewriteSettings#effectiveThreads()} threads and returns their
     * results in the tasks' order. When one fails, the others are asked to stop, every task is
     * waited for (each cleans up after itself), {@code undo} is applied to the results of those that
     * finished, and the first real failure is thrown.
     */
    private <T> List<T> inParallel(String what, List<Callable<T>> tasks, AtomicBoolean stop, Consumer<T> undo) {
        int threads = threadsFor(tasks.size());
        List<T> results = new ArrayList<>();
        if (threads <= 1) {
            try {
                for (Callable<T> task : tasks) {
                    results.add(task.call());
                }
                return results;
            } catch (Exception e) {
                results.forEach(undo);
                throw unchecked(what, e);
            }
        }
        int id = POOL_IDS.incrementAndGet();
        AtomicInteger threadIds = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads, runnable -> {
            Thread thread = new Thread(runnable, "cryo-" + what.replace(' ', '-') + "-" + id + "-"
                    + threadIds.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        try {
            List<Future<T>> futures = tasks.stream().map(pool::submit).toList();
            Throwable failure = null;
            boolean interrupted = false;
            for (Future<T> future : futures) {
                while (true) {
                    try {
                        results.add(future.get());
                        break;
                    } catch (ExecutionException e) {
                        stop.set(true);
                        if (failure == null || failure instanceof Stopped) {
                            failure = e.getCause();
                        }
                        break;
                    } catch (InterruptedException e) {
                        // the job is being stopped: let the tasks stop and clean up, then say so
                        interrupted = true;
                        stop.set(true);
                    }
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
                if (failure == null || failure instanceof Stopped) {
                    failure = new CryoException(ExecutorErrorCode.ENGINE_FAILURE, "Cannot " + what + " the files of "
                            + table.name() + ": interrupted");
                }
            }
            if (failure != null) {
                results.forEach(undo);
                throw unchecked(what, failure);
            }
            return results;
        } finally {
            pool.shutdown();
        }
    }

    private int threadsFor(int tasks) {
        return Math.max(1, Math.min(settings.effectiveThreads(), tasks));
    }

    private RuntimeException unchecked(String what, Throwable failure) {
        if (failure instanceof Error error) {
            throw error;
        }
        if (failure instanceof RuntimeException runtime) {
            return runtime;
        }
        return new CryoException(ExecutorErrorCode.ENGINE_FAILURE, "Cannot " + what + " the files of " + table.name()
                + ": " + failure, failure);
    }


    private void deleteQuietly(List<? extends ContentFile<?>> files) {
        for (ContentFile<?> file : files) {
            try {
                table.io().deleteFile(file.location());
            } catch (RuntimeException e) {
                // An uncommitted file left behind is an orphan that remove_orphan_files collects later.
                Log.warnf("%s: cannot delete uncommitted file %s: %s", table.name(), file.location(), e.getMessage());
            }
        }
    }

    private CryoException storage(String action, Exception e) {
        return new CryoException(ExecutorErrorCode.STORAGE_FAILURE, "Cannot " + action + " of " + table.name() + ": "
                + e.getMessage(), e);
    }

    private static int[] columnIndexes(Schema schema, Schema readSchema) {
        int[] indexes = new int[schema.columns().size()];
        for (int i = 0; i < indexes.length; i++) {
            indexes[i] = indexOf(readSchema, schema.columns().get(i).fieldId());
        }
        return indexes;
    }

    private static int indexOf(Schema schema, int fieldId) {
        List<Types.NestedField> columns = schema.columns();
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).fieldId() == fieldId) {
                return i;
            }
        }
        throw new IllegalStateException("column id " + fieldId + " is missing from the read schema " + schema);
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
