package dev.cryo.executor.iceberg;

import dev.cryo.executor.ExecutorErrorCode;
import dev.cryo.iceberg.fingerprint.Fingerprint;
import dev.cryo.iceberg.fingerprint.Fingerprints;
import dev.cryo.platform.error.CryoException;
import org.apache.datasketches.theta.CompactSketch;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Checks a rewrite's new files before it is committed: every new file is read back from storage
 * (several at once) and the rows, with their lineage from format v3 on, must have the fingerprint
 * of the rows that went in. On a mismatch, or when a file cannot be read, the new files are
 * deleted and the rewrite fails: nothing is committed.
 */
final class RewriteVerifier {

    /** What reading one new file back gave: its fingerprint, and its column sketches when kept. */
    private record ReadBack(Fingerprint fingerprint, Map<Integer, CompactSketch> sketches) {
    }

    private final Table table;
    private final WriteMemory memory;
    private final ParallelTasks parallel;

    RewriteVerifier(Table table, WriteMemory memory, ParallelTasks parallel) {
        this.table = table;
        this.memory = memory;
        this.parallel = parallel;
    }

    /**
     * Reads {@code written}'s files back and compares their rows with the rows read for {@code plan}.
     * Returns the union of the files' column sketches when {@code sketching} (the rows are read here
     * anyway, so a later compute_statistics of the same job need not read them again), else null.
     */
    Map<Integer, CompactSketch> verify(RewritePlan plan, RewriteOutput written, boolean sketching) {
        Schema schema = Fingerprints.schemaOf(table);
        long reserve = WriteMemory.perStream(table);
        AtomicBoolean stop = new AtomicBoolean();
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
}
