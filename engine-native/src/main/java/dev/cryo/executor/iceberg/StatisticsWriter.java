package dev.cryo.executor.iceberg;

import dev.cryo.contracts.event.FileCounts;
import dev.cryo.executor.ExecutorErrorCode;
import dev.cryo.executor.engine.CommitTags;
import dev.cryo.executor.engine.StepResult;
import dev.cryo.iceberg.commit.CommitOutcome;
import dev.cryo.platform.error.CryoException;
import org.apache.datasketches.theta.CompactSketch;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.GenericBlobMetadata;
import org.apache.iceberg.GenericStatisticsFile;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StatisticsFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericDeleteFilter;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.puffin.Blob;
import org.apache.iceberg.puffin.Puffin;
import org.apache.iceberg.puffin.PuffinWriter;
import org.apache.iceberg.puffin.StandardBlobTypes;
import org.apache.iceberg.types.Types;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * compute_statistics: one Puffin file per snapshot with an Apache DataSketches theta sketch of
 * every top-level primitive column, the way Iceberg's Spark and Trino engines write them (blob
 * type {@code apache-datasketches-theta-v1}, each value fed as Iceberg's single-value binary
 * form, the estimate in the {@code ndv} property), registered on the table. Rows are streamed
 * with deletes applied; memory is one sketch per column. The rows of files that a rewrite of this
 * engine just read back to verify them are not read again: their sketches come from {@link SketchCache}.
 */
final class StatisticsWriter {

    /** Blob property naming the job that wrote the statistics: how a re-run job recognises its own work. */
    static final String JOB_PROPERTY = CommitTags.JOB_ID;

    /** Commits of the statistics against newer metadata before the step gives up. */
    private static final int REGISTER_ATTEMPTS = 10;

    private final Table table;
    private final SketchCache cache;

    StatisticsWriter(Table table, SketchCache cache) {
        this.table = table;
        this.cache = cache;
    }

    StepResult compute(String jobId) {
        table.refresh();
        Snapshot snapshot = table.currentSnapshot();
        if (snapshot == null) {
            return StepResult.nothingToDo("the table has no snapshot");
        }
        List<Types.NestedField> columns = ColumnSketches.columnsOf(table.schema());
        Sketched sketched = sketch(snapshot);
        String location = ((HasTableOperations) table).operations()
                .metadataFileLocation(snapshot.snapshotId() + "-" + UUID.randomUUID() + ".stats");
        OutputFile output = table.io().newOutputFile(location);
        StatisticsFile statistics;
        try (PuffinWriter writer = Puffin.write(output).createdBy("cryo executor").build()) {
            for (int i = 0; i < columns.size(); i++) {
                CompactSketch sketch = sketched.sketches().get(columns.get(i).fieldId());
                writer.add(new Blob(StandardBlobTypes.APACHE_DATASKETCHES_THETA_V1, List.of(columns.get(i).fieldId()),
                        snapshot.snapshotId(), snapshot.sequenceNumber(), ByteBuffer.wrap(sketch.toByteArray()), null,
                        Map.of("ndv", String.valueOf(Math.round(sketch.getEstimate())), JOB_PROPERTY, jobId)));
            }
            writer.finish();
            statistics = new GenericStatisticsFile(snapshot.snapshotId(), location, writer.fileSize(),
                    writer.footerSize(), GenericBlobMetadata.from(writer.writtenBlobsMetadata()));
        } catch (IOException e) {
            throw new CryoException(ExecutorErrorCode.STORAGE_FAILURE, "Cannot write statistics file " + location
                    + ": " + e.getMessage(), e);
        }
        register(table, statistics);
        return new StepResult(FileCounts.ZERO, new FileCounts(0, 0, 0, sketched.rows()), null, 0,
                "wrote NDV sketches of " + columns.size() + " columns of snapshot " + snapshot.snapshotId() + " to "
                        + location + " (" + sketched.describe() + ")", List.of(location)).withChanged(true);
    }

    /**
     * Registers the statistics file on the table. Computing it reads the whole snapshot, so on a table with a writer
     * the table has moved on by then: a commit that meets newer metadata refreshes and registers again (the file
     * describes its own snapshot, whatever came after). A snapshot expired meanwhile has nothing to describe: the
     * file is deleted and the step fails with a conflict.
     */
    static void register(Table table, StatisticsFile statistics) {
        for (int attempt = 1; ; attempt++) {
            try {
                table.updateStatistics().setStatistics(statistics).commit();
                return;
            } catch (CommitFailedException e) {
                // CommitOutcome.FAILED_CLEANLY: nothing registered the file.
                table.refresh();
                boolean expired = table.snapshot(statistics.snapshotId()) == null;
                if (expired || attempt >= REGISTER_ATTEMPTS) {
                    TableFiles.deleteQuietly(table, statistics.path());
                    throw new CryoException(ExecutorErrorCode.COMMIT_CONFLICT, "Cannot register the statistics of "
                            + "snapshot " + statistics.snapshotId() + " on " + table.name() + ": " + (expired
                            ? "the snapshot was expired while its statistics were computed"
                            : "concurrent commits changed the table " + attempt + " times in a row") + " (" + e.getMessage()
                            + ")", e);
                }
            } catch (RuntimeException e) {
                if (CommitOutcome.of(e).mayCleanUp()) {
                    TableFiles.deleteQuietly(table, statistics.path());
                    throw e;
                }
                // The statistics may be registered: the file stays, and a re-run finds it by its job property.
                throw TableFiles.commitStateUnknown(table, "the registration of the statistics of snapshot "
                        + statistics.snapshotId(), statistics.path() + " is kept", e);
            }
        }
    }

    /** The snapshot's column sketches, how many rows were read for them and how many files came from the cache. */
    private record Sketched(Map<Integer, CompactSketch> sketches, long rowsRead, long rowsCached, int filesRead,
                            int filesCached) {
        long rows() {
            return rowsRead + rowsCached;
        }

        String describe() {
            return filesCached == 0 ? "read " + rowsRead + " rows"
                    : "read " + rowsRead + " rows of " + files(filesRead) + "; the " + rowsCached + " rows of "
                    + files(filesCached) + " rewritten just before came from their read-back";
        }

        private static String files(int count) {
            return count == 1 ? "1 file" : count + " files";
        }
    }

    /**
     * Sketches the snapshot's rows, deletes applied. The files of a rewrite that this engine read back are
     * taken from the cache when the whole group is live without deletes under the same schema; every
     * other file is read (Parquet ones one by one; if a file of another format remains, the whole table).
     */
    private Sketched sketch(Snapshot snapshot) {
        Map<String, FileScanTask> live = new LinkedHashMap<>();
        try (CloseableIterable<FileScanTask> tasks = table.newScan().useSnapshot(snapshot.snapshotId()).planFiles()) {
            tasks.forEach(task -> live.put(task.file().location(), task));
        } catch (IOException e) {
            throw failure(e);
        }
        List<Map<Integer, CompactSketch>> parts = new ArrayList<>();
        Set<String> cached = new HashSet<>();
        List<Integer> wanted = ColumnSketches.columnsOf(table.schema()).stream().map(Types.NestedField::fieldId).toList();
        for (SketchCache.Group group : cache == null ? List.<SketchCache.Group>of() : cache.of(table.name())) {
            boolean usable = group.schemaId() == table.schema().schemaId()
                    && group.sketches().keySet().containsAll(wanted)
                    && group.files().stream().allMatch(file -> live.containsKey(file)
                            && live.get(file).deletes().isEmpty() && !cached.contains(file));
            if (usable) {
                parts.add(group.sketches());
                cached.addAll(group.files());
            }
        }
        List<FileScanTask> toRead = live.values().stream().filter(task -> !cached.contains(task.file().location())).toList();
        if (cached.isEmpty() || toRead.stream().anyMatch(task -> task.file().format() != FileFormat.PARQUET)) {
            ColumnSketches all = new ColumnSketches(table.schema());
            long rows;
            try (CloseableIterable<Record> records = IcebergGenerics.read(table).useSnapshot(snapshot.snapshotId()).build()) {
                rows = feed(all, records, table.schema());
            } catch (IOException e) {
                throw failure(e);
            }
            return new Sketched(all.compact(), rows, 0, live.size(), 0);
        }
        ColumnSketches rest = new ColumnSketches(table.schema());
        long rows = 0;
        for (FileScanTask task : toRead) {
            GenericDeleteFilter deletes = new GenericDeleteFilter(table.io(), task, table.schema(), table.schema());
            try (CloseableIterable<Record> records = deletes.filter(ParquetRows.open(table.io(), task,
                    deletes.requiredSchema()))) {
                rows += feed(rest, records, deletes.requiredSchema());
            } catch (IOException e) {
                throw failure(e);
            }
        }
        parts.add(rest.compact());
        long rowsCached = cached.stream().mapToLong(file -> live.get(file).file().recordCount()).sum();
        return new Sketched(ColumnSketches.union(parts), rows, rowsCached, toRead.size(), cached.size());
    }

    private static long feed(ColumnSketches sketches, Iterable<Record> records, Schema rowSchema) {
        ColumnSketches.Feeder feeder = sketches.feeder(rowSchema);
        long rows = 0;
        for (Record record : records) {
            feeder.add(record);
            rows++;
        }
        return rows;
    }

    private CryoException failure(IOException e) {
        return new CryoException(ExecutorErrorCode.STORAGE_FAILURE, "Cannot compute statistics of " + table.name()
                + ": " + e.getMessage(), e);
    }


    /** Whether the table's statistics include a file that this job wrote. */
    static boolean writtenBy(Table table, String jobId) {
        return table.statisticsFiles().stream().flatMap(file -> file.blobMetadata().stream())
                .anyMatch(blob -> jobId.equals(blob.properties().get(JOB_PROPERTY)));
    }
}
