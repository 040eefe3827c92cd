package dev.cryo.executor.iceberg;

import dev.cryo.executor.iceberg.RewriteOutput.Run;
import dev.cryo.iceberg.fingerprint.Fingerprint;
import dev.cryo.iceberg.fingerprint.Fingerprints;
import dev.cryo.platform.error.CryoException;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericDeleteFilter;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Writes a rewrite plan's partitions, with their deletes applied, into new files of the target size,
 * and fingerprints the rows as they go in (the fingerprint {@link RewriteVerifier} checks the new
 * files against).
 *
 * <p>The columns read, written and fingerprinted are those a table's fingerprint covers
 * ({@link Fingerprints#schemaOf}): the table's, and from format v3 on the row lineage columns,
 * written as explicit values so that the new files do not re-assign them.
 *
 * <p>Row lineage (format v3 and later): a row moved to a new file must keep its {@code _row_id}
 * and {@code _last_updated_sequence_number}, but a new file inherits neither (it gets a new first
 * row id and the commit's sequence number). So every row's lineage is read, inherited values
 * resolved, and written into the new files as explicit values; the fingerprints cover it, so a
 * row whose lineage changed fails the rewrite like a row whose value changed.
 *
 * <p>Memory: rows are streamed file by file (a partition is never held in memory), and every
 * writer first reserves a row group of heap from {@link WriteMemory}.
 */
final class ChunkWriter {

    private final Table table;
    private final WriteMemory memory;
    private final ParallelTasks parallel;
    private final long targetFileSizeBytes;

    ChunkWriter(Table table, WriteMemory memory, ParallelTasks parallel, long targetFileSizeBytes) {
        this.table = table;
        this.memory = memory;
        this.parallel = parallel;
        this.targetFileSizeBytes = targetFileSizeBytes;
    }

    /** One partition's new files, in the order written; its runs name those files by their index here. */
    private record PartitionOutput(List<DataFile> files, Map<String, List<Run>> runs, Fingerprint input) {
    }

    /**
     * Writes every partition of the plan, several at once (one Parquet writer each, so a partition's
     * output is still written in order), and merges their outputs in partition order.
     */
    RewriteOutput write(RewritePlan plan) {
        Schema schema = Fingerprints.schemaOf(table);
        long reserve = WriteMemory.perStream(table);
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
     * {@code schema}: the columns written, {@link Fingerprints#schemaOf}.
     */
    private PartitionOutput writePartition(Schema schema, List<FileScanTask> tasks, AtomicBoolean stop) {
        Schema requested = new Schema(concat(schema.columns(), MetadataColumns.ROW_POSITION));
        DataFile first = tasks.get(0).file();
        PartitionSpec spec = table.specs().get(first.specId());
        List<DataFile> files = new ArrayList<>();
        Map<String, List<Run>> runs = new HashMap<>();
        Tally tally = new Tally();
        try {
            RollingOutput output = new RollingOutput(table, schema, spec, first.partition(), targetFileSizeBytes, files);
            try {
                for (FileScanTask task : tasks) {
                    ParallelTasks.stopIfAsked(stop);
                    copyFile(task, schema, requested, output, runs.computeIfAbsent(task.file().location(),
                            ignored -> new ArrayList<>()), tally, stop);
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
        return new PartitionOutput(List.copyOf(files), runs, new Fingerprint(tally.rows, tally.hash));
    }

    /** Rows read and the sum of their hashes: what the chunk's fingerprint is made of. */
    private static final class Tally {
        long rows;
        long hash;
    }

    /** Copies one file's live rows (its deletes applied) into the output, counting and hashing each as it is written. */
    private void copyFile(FileScanTask task, Schema schema, Schema requested, RollingOutput output, List<Run> fileRuns,
                          Tally tally, AtomicBoolean stop) throws IOException {
        Types.StructType struct = schema.asStruct();
        int lastUpdated = indexOfOrNone(schema, MetadataColumns.LAST_UPDATED_SEQUENCE_NUMBER.fieldId());
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
                tally.rows++;
                tally.hash += Fingerprints.hashRow(struct, copy);
                output.write(copy, fileRuns, (Long) row.get(position));
                if (tally.rows % RollingOutput.SIZE_CHECK_ROWS == 0) {
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
}
