package dev.cryo.bench.harness;

import dev.cryo.iceberg.fingerprint.Fingerprint;
import dev.cryo.iceberg.fingerprint.Fingerprints;
import dev.cryo.iceberg.fixtures.TableWriter;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericAppenderFactory;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.parquet.Parquet;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One contender's copy of scenario 3's CDC table, changed the way Spark and Trino run a MERGE on a merge-on-read
 * table: read the files of the partition, write position deletes for the rows it replaces and a file of new
 * rows, and commit both as one row delta that fails validation when a file it read was replaced meanwhile (by
 * a compaction). On that conflict the MERGE reads again and retries, as an orchestrator re-runs a failed MERGE;
 * conflicts are counted.
 */
public final class CdcCopy {

    /** A MERGE that conflicted this many times in a row is a harness error: the writer is starved. */
    private static final int MAX_ATTEMPTS = 30;
    private static final AtomicInteger TASKS = new AtomicInteger(1_000_000);
    /** How many generated rows go into one call of the file writer. */
    private static final int BATCH = 2000;

    private final Table table;
    private final TableWriter writer;
    private final Set<String> ownDeletes = new HashSet<>();
    private int merges;
    private int conflicts;

    public CdcCopy(Table table) {
        this.table = table;
        this.writer = new TableWriter(table);
    }

    public Table table() {
        return table;
    }

    /** MERGEs committed. */
    public int merges() {
        return merges;
    }

    /** MERGEs that failed validation against a concurrent commit and were run again. */
    public int conflicts() {
        return conflicts;
    }

    /**
     * Writes the initial table into the first copy, files of about {@code fileBytes} in the days in turn until
     * {@code tableBytes} are written, commits them as one append, and copies the files byte for byte into every
     * other copy (so each contender starts from the same files without generating the rows again).
     *
     * @return the bytes of data written into each copy
     */
    public static long build(CdcRows rows, List<CdcCopy> copies, long tableBytes, long fileBytes) {
        CdcCopy first = copies.get(0);
        List<DataFile> files = new ArrayList<>();
        long written = 0;
        for (int file = 0; written < tableBytes || file < rows.days(); file++) {
            DataFile data = first.writeRolling(rows, file % rows.days(), fileBytes);
            files.add(data);
            written += data.fileSizeInBytes();
        }
        first.append(files);
        for (CdcCopy copy : copies.subList(1, copies.size())) {
            copy.append(files.stream().map(copy::copyIn).toList());
        }
        return written;
    }

    /** One MERGE, retried from a fresh read while it conflicts; returns how many times it conflicted. */
    public int merge(CdcRows.Change change) {
        PartitionKey key = writer.partitionOf(change.rows().get(0));
        for (int attempt = 1; ; attempt++) {
            table.refresh();
            Snapshot read = table.currentSnapshot();
            TreeMap<String, List<Long>> positions = positionsOf(read, key, change.updated());
            List<DataFile> added = writer.writeDataFiles(change.rows());
            DeleteFile deletes = positions.isEmpty() ? null : writePositionDeletes(key, positions);
            RowDelta delta = table.newRowDelta().validateFromSnapshot(read.snapshotId())
                    .validateDataFilesExist(positions.keySet()).validateDeletedFiles();
            added.forEach(delta::addRows);
            if (deletes != null) {
                delta.addDeletes(deletes);
            }
            try {
                delta.commit();
            } catch (ValidationException e) {
                added.forEach(file -> table.io().deleteFile(file.location()));
                if (deletes != null) {
                    table.io().deleteFile(deletes.location());
                }
                conflicts++;
                if (attempt >= MAX_ATTEMPTS) {
                    throw new IllegalStateException("The MERGE into " + table.name() + " conflicted " + attempt
                            + " times in a row; last: " + e.getMessage(), e);
                }
                continue;
            }
            positions.forEach((location, list) -> list.forEach(position -> ownDeletes.add(location + "#" + position)));
            merges++;
            return attempt - 1;
        }
    }

    /** What the copy holds now (reads every row). */
    public Fingerprint actual() {
        table.refresh();
        return Fingerprints.ofTable(table);
    }

    /** Where, in the files of the partition as of the snapshot, the live rows of the ids are: file → positions. */
    private TreeMap<String, List<Long>> positionsOf(Snapshot read, PartitionKey key, Set<Long> ids) {
        TreeMap<String, List<Long>> positions = new TreeMap<>();
        if (ids.isEmpty()) {
            return positions;
        }
        Schema idOnly = table.schema().select("id");
        Object day = key.get(0, Object.class);
        try (CloseableIterable<FileScanTask> tasks = table.newScan().useSnapshot(read.snapshotId()).planFiles()) {
            for (FileScanTask task : tasks) {
                DataFile file = task.file();
                if (!day.equals(file.partition().get(0, Object.class))) {
                    continue;
                }
                InputFile input = table.io().newInputFile(file.location());
                try (CloseableIterable<Record> idsRead = Parquet.read(input).project(idOnly)
                        .createReaderFunc(fileSchema -> GenericParquetReaders.buildReader(idOnly, fileSchema)).build()) {
                    long position = 0;
                    for (Record row : idsRead) {
                        if (ids.contains((Long) row.get(0)) && !ownDeletes.contains(file.location() + "#" + position)) {
                            positions.computeIfAbsent(file.location(), ignored -> new ArrayList<>()).add(position);
                        }
                        position++;
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + table.name() + " for a MERGE: " + e.getMessage(), e);
        }
        return positions;
    }

    /** One position delete file for the partition, as a MERGE task writes it: sorted by file, then position. */
    private DeleteFile writePositionDeletes(PartitionKey key, TreeMap<String, List<Long>> positions) {
        PartitionSpec spec = table.spec();
        PositionDeleteWriter<Record> deletes = new GenericAppenderFactory(table.schema(), spec)
                .newPosDeleteWriter(files().newOutputFile(spec, key), FileFormat.PARQUET, key);
        try (deletes) {
            PositionDelete<Record> delete = PositionDelete.create();
            positions.forEach((location, list) -> list.stream().sorted()
                    .forEach(position -> deletes.write(delete.set(location, position, null))));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write position deletes: " + e.getMessage(), e);
        }
        return deletes.toDeleteFile();
    }

    /** One data file of the day, rows generated batch by batch until it holds about {@code fileBytes}. */
    private DataFile writeRolling(CdcRows rows, int day, long fileBytes) {
        PartitionSpec spec = table.spec();
        List<Record> first = rows.insert(day, BATCH);
        PartitionKey key = writer.partitionOf(first.get(0));
        DataWriter<Record> data = new GenericAppenderFactory(table.schema(), spec)
                .newDataWriter(files().newOutputFile(spec, key), FileFormat.PARQUET, key);
        try (data) {
            first.forEach(data::write);
            while (data.length() < fileBytes) {
                rows.insert(day, BATCH).forEach(data::write);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + table.name() + ": " + e.getMessage(), e);
        }
        return data.toDataFile();
    }

    private void append(List<DataFile> files) {
        table.refresh();
        AppendFiles append = table.newAppend();
        files.forEach(append::appendFile);
        append.commit();
    }

    /** A byte copy of another table's data file under this table's location, described as the same file. */
    private DataFile copyIn(DataFile file) {
        String name = file.location().substring(file.location().lastIndexOf('/') + 1);
        String location = table.locationProvider().newDataLocation(table.spec(), file.partition(), name);
        OutputFile output = table.io().newOutputFile(location);
        try (InputStream in = table.io().newInputFile(file.location()).newStream();
             OutputStream out = output.createOrOverwrite()) {
            in.transferTo(out);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot copy " + file.location() + " to " + location + ": " + e.getMessage(), e);
        }
        return DataFiles.builder(table.spec()).copy(file).withPath(location).build();
    }

    private OutputFileFactory files() {
        return OutputFileFactory.builderFor(table, 1, TASKS.incrementAndGet()).format(FileFormat.PARQUET).build();
    }
}
