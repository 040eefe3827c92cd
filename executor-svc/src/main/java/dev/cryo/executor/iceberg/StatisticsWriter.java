package dev.cryo.executor.iceberg;

import dev.cryo.contracts.event.FileCounts;
import dev.cryo.executor.ExecutorErrorCode;
import dev.cryo.executor.engine.CommitTags;
import dev.cryo.executor.engine.StepResult;
import dev.cryo.platform.error.CryoException;
import org.apache.datasketches.theta.CompactSketch;
import org.apache.datasketches.theta.UpdateSketch;
import org.apache.iceberg.GenericBlobMetadata;
import org.apache.iceberg.GenericStatisticsFile;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StatisticsFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.puffin.Blob;
import org.apache.iceberg.puffin.Puffin;
import org.apache.iceberg.puffin.PuffinWriter;
import org.apache.iceberg.puffin.StandardBlobTypes;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * compute_statistics: one Puffin file per snapshot with an Apache DataSketches theta sketch of
 * every top-level primitive column, the way Iceberg's Spark and Trino engines write them (blob
 * type {@code apache-datasketches-theta-v1}, each value fed as Iceberg's single-value binary
 * form, the estimate in the {@code ndv} property), registered on the table. Rows are streamed
 * with deletes applied; memory is one sketch per column.
 */
final class StatisticsWriter {

    /** Blob property naming the job that wrote the statistics: how a re-run job recognises its own work. */
    static final String JOB_PROPERTY = CommitTags.JOB_ID;

    private final Table table;

    StatisticsWriter(Table table) {
        this.table = table;
    }

    StepResult compute(String jobId) {
        table.refresh();
        Snapshot snapshot = table.currentSnapshot();
        if (snapshot == null) {
            return StepResult.nothingToDo("the table has no snapshot");
        }
        List<Types.NestedField> columns = table.schema().columns().stream()
                .filter(column -> column.type().isPrimitiveType()).toList();
        List<UpdateSketch> sketches = new ArrayList<>();
        columns.forEach(column -> sketches.add(UpdateSketch.builder().build()));
        InternalRecordWrapper internal = new InternalRecordWrapper(table.schema().asStruct());
        int[] positions = columns.stream().mapToInt(column -> table.schema().columns().indexOf(column)).toArray();
        long rows = 0;
        try (CloseableIterable<Record> records = IcebergGenerics.read(table).useSnapshot(snapshot.snapshotId()).build()) {
            for (Record record : records) {
                rows++;
                internal.wrap(record);
                for (int i = 0; i < positions.length; i++) {
                    Object value = internal.get(positions[i], Object.class);
                    if (value != null) {
                        ByteBuffer bytes = Conversions.toByteBuffer(columns.get(i).type(), value);
                        sketches.get(i).update(bytes);
                    }
                }
            }
        } catch (IOException e) {
            throw new CryoException(ExecutorErrorCode.STORAGE_FAILURE, "Cannot compute statistics of " + table.name()
                    + ": " + e.getMessage(), e);
        }
        String location = ((HasTableOperations) table).operations()
                .metadataFileLocation(snapshot.snapshotId() + "-" + UUID.randomUUID() + ".stats");
        OutputFile output = table.io().newOutputFile(location);
        StatisticsFile statistics;
        try (PuffinWriter writer = Puffin.write(output).createdBy("cryo executor").build()) {
            for (int i = 0; i < columns.size(); i++) {
                CompactSketch sketch = sketches.get(i).compact();
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
        table.updateStatistics().setStatistics(statistics).commit();
        return new StepResult(FileCounts.ZERO, new FileCounts(0, 0, 0, rows), null, 0,
                "wrote NDV sketches of " + columns.size() + " columns over " + rows + " rows of snapshot "
                        + snapshot.snapshotId() + " to " + location, List.of(location)).withChanged(true);
    }

    /** Whether the table's statistics include a file that this job wrote. */
    static boolean writtenBy(Table table, String jobId) {
        return table.statisticsFiles().stream().flatMap(file -> file.blobMetadata().stream())
                .anyMatch(blob -> jobId.equals(blob.properties().get(JOB_PROPERTY)));
    }
}
