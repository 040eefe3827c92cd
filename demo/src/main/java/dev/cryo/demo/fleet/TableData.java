package dev.cryo.demo.fleet;

import dev.cryo.iceberg.fixtures.SampleTables;
import dev.cryo.iceberg.fixtures.TableWriter;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.IntFunction;

import static java.util.Objects.requireNonNull;

/**
 * Writes rows, deletes and history into one table the way writer applications do: every call
 * that ends in a commit is one Iceberg commit. Used to build the fleet and by the live writers.
 *
 * <p>Payloads are random letters and digits (they compress little), so file sizes follow row
 * counts: {@link #GOOD_FILE_ROWS} rows make a file of about 0.8 MiB, well above the small-file
 * threshold of the demo's 2 MiB target (512 KiB) and below its oversized limit (4 MiB).
 *
 * <p>Commits build on the table's current metadata as this process last saw it; when another
 * writer (a maintenance job) committed meanwhile, Iceberg refreshes and retries on its own.
 */
public final class TableData {

    /** Rows of a well-sized data file. */
    public static final int GOOD_FILE_ROWS = 8_000;

    /** Characters of each row's payload. */
    public static final int PAYLOAD_CHARS = 120;

    /** Categories the rows spread over. */
    static final int CATEGORIES = 40;

    private final Table table;
    private final TableWriter writer;
    private final Random random;
    private final Clock clock;
    private long nextId;
    /** The snapshot this writer last saw: position deletes are validated against changes since. */
    private Long observedSnapshotId;

    public TableData(Table table, Random random, Clock clock, long firstId) {
        this.table = requireNonNull(table, "table is null");
        this.writer = new TableWriter(table);
        this.random = requireNonNull(random, "random is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.nextId = firstId;
    }

    public Table table() {
        return table;
    }

    public Random random() {
        return random;
    }

    /** Now, in UTC, at whole seconds. */
    public OffsetDateTime now() {
        return OffsetDateTime.ofInstant(clock.instant(), ZoneOffset.UTC).withNano(0);
    }

    /** {@code count} new rows with fresh ids and event times spread over {@code [start, start + spread)}. */
    public List<Record> rows(int count, OffsetDateTime start, Duration spread) {
        List<Record> rows = SampleTables.events(random, nextId, count, start, spread, CATEGORIES, PAYLOAD_CHARS);
        nextId += count;
        return rows;
    }

    /** Rows for one well-sized file of the partition that {@code start} falls in. */
    public List<Record> goodFileRows(OffsetDateTime start, Duration spread) {
        return rows(GOOD_FILE_ROWS, start, spread);
    }

    /**
     * Writes each batch (one data file per partition it touches) and commits all files as one
     * append.
     */
    @SafeVarargs
    public final List<DataFile> append(List<Record>... batches) {
        return appendAll(List.of(batches));
    }

    /** {@link #append} of a list of batches. */
    public List<DataFile> appendAll(List<List<Record>> batches) {
        List<DataFile> files = new ArrayList<>();
        for (List<Record> batch : batches) {
            files.addAll(writer.writeDataFiles(batch));
        }
        var append = table.newAppend();
        files.forEach(append::appendFile);
        append.commit();
        observe();
        return files;
    }

    /**
     * An upsert commit as CDC writers make it: for every key an equality delete on {@code id}
     * and the new version of the row, in one row delta. The deletes apply to older data only, so
     * the new versions stay visible.
     */
    public void upsert(Collection<Long> ids, OffsetDateTime at) {
        List<Record> versions = new ArrayList<>();
        for (long id : ids) {
            versions.addAll(SampleTables.events(random, id, 1, at, Duration.ofSeconds(1), CATEGORIES, PAYLOAD_CHARS));
        }
        List<DeleteFile> deletes = writer.writeEqualityDeletes(versions, "id");
        List<DataFile> files = writer.writeDataFiles(versions);
        RowDelta delta = table.newRowDelta();
        files.forEach(delta::addRows);
        deletes.forEach(delta::addDeletes);
        delta.commit();
        observe();
    }

    /**
     * Deletes rows of one data file by position (a position delete file in v2, a deletion vector
     * in v3). The commit fails validation when the file is gone since this writer last saw the
     * table (its last commit or listing), for instance because a maintenance job rewrote it:
     * deleting positions of a replaced file would delete nothing.
     */
    public DeleteFile deletePositions(DataFile file, long... positions) {
        DeleteFile deletes = writer.writePositionDeletes(file, positions);
        RowDelta delta = table.newRowDelta().addDeletes(deletes);
        if (observedSnapshotId != null) {
            delta.validateFromSnapshot(observedSnapshotId).validateDataFilesExist(List.of(file.location()));
        }
        delta.commit();
        observe();
        return deletes;
    }

    /** Position deletes of several data files in one commit (v3: one deletion vector each). */
    public void deletePositions(Map<DataFile, long[]> positionsByFile) {
        List<DeleteFile> deletes = new ArrayList<>();
        positionsByFile.forEach((file, positions) -> deletes.add(writer.writePositionDeletes(file, positions)));
        writer.commitDeletes(deletes.toArray(DeleteFile[]::new));
        observe();
    }

    /** Replaces one data file with the rows given, as one overwrite commit. */
    public DataFile replace(DataFile old, List<Record> rows) {
        List<DataFile> written = writer.writeDataFiles(rows);
        OverwriteFiles overwrite = table.newOverwrite().deleteFile(old);
        written.forEach(overwrite::addFile);
        overwrite.commit();
        observe();
        return written.get(0);
    }

    /** The data files of the current snapshot. */
    public List<DataFile> dataFiles() {
        table.refresh();
        List<DataFile> files = new ArrayList<>();
        if (table.currentSnapshot() == null) {
            return files;
        }
        observe();
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            tasks.forEach(task -> files.add(task.file()));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list the data files of " + table.name() + ": " + e.getMessage(), e);
        }
        return files;
    }

    /** Gives the table's snapshots the timestamps of a long history (see {@link SnapshotHistory}). */
    public void backdate(IntFunction<Instant> timestampOfSnapshot) {
        SnapshotHistory.rewrite(table, timestampOfSnapshot);
    }

    /** Leaves files under the table's data folder that no snapshot references (see {@link OrphanFiles}). */
    public List<String> plantOrphans(int files, int rowsPerFile, Duration age) {
        return OrphanFiles.plant(this, files, rowsPerFile, age);
    }

    private void observe() {
        Snapshot current = table.currentSnapshot();
        observedSnapshotId = current == null ? null : current.snapshotId();
    }

    TableWriter writer() {
        return writer;
    }
}
