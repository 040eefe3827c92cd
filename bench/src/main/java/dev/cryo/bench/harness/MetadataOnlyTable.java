package dev.cryo.bench.harness;

import dev.cryo.iceberg.fixtures.SampleTables;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionData;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Scenario 7's table: data-file entries appended to an events table (day partitions, format v2)
 * with sizes, record counts, partitions and column metrics, but no Parquet behind them. The
 * scanner, Trino's {@code "$files"} and Spark's {@code .files} read only the metadata, so the table
 * is as real for them as a written one and is built in seconds. Every commit is a fast append (one
 * new manifest each), as a streaming writer makes them.
 */
public final class MetadataOnlyTable {

    private static final long MICROS_PER_DAY = 86_400L * 1_000_000L;

    private final Table table;
    private final SyntheticLayout layout;

    public MetadataOnlyTable(Table table, SyntheticLayout layout) {
        this.table = requireNonNull(table, "table is null");
        this.layout = requireNonNull(layout, "layout is null");
    }

    /** Appends every file of the layout, one fast append per commit of the layout. */
    public void build() {
        for (int commit = 0; commit < layout.commits(); commit++) {
            AppendFiles append = table.newFastAppend();
            for (int file = layout.firstFileOf(commit); file < layout.firstFileOf(commit + 1); file++) {
                append.appendFile(entry(file, layout.partitionOf(file), layout.sizeBytes(file), layout.records(file)));
            }
            append.commit();
        }
    }

    /** One more small commit: a single file of the given size in the last partition. Returns its record count. */
    public long appendOne(int index, long sizeBytes) {
        long records = Math.max(1, sizeBytes / SyntheticLayout.BYTES_PER_RECORD);
        table.newFastAppend().appendFile(entry(layout.files() + index, layout.partitions() - 1, sizeBytes, records)).commit();
        return records;
    }

    private DataFile entry(int file, int partition, long sizeBytes, long records) {
        PartitionData partitionData = new PartitionData(table.spec().partitionType());
        int epochDay = (int) layout.dayOf(partition).toEpochDay();
        partitionData.set(0, epochDay);
        // the one file after the layout (appendOne) is named like the layout's files, in the last partition
        String path = file < layout.files() ? layout.path(table.location(), file)
                : table.location() + "/data/event_ts_day=" + layout.dayOf(partition) + "/synthetic-"
                + String.format("%07d", file) + ".parquet";
        return DataFiles.builder(table.spec())
                .withPath(path)
                .withFormat(FileFormat.PARQUET)
                .withFileSizeInBytes(sizeBytes)
                .withRecordCount(records)
                .withPartition(partitionData)
                .withMetrics(metrics(file, epochDay, sizeBytes, records))
                .build();
    }

    /** Column sizes, value and null counts for every column, bounds for id, event_ts and quantity: what writers record. */
    private static Metrics metrics(int file, int epochDay, long sizeBytes, long records) {
        Map<Integer, Long> columnSizes = new HashMap<>();
        Map<Integer, Long> valueCounts = new HashMap<>();
        Map<Integer, Long> nullCounts = new HashMap<>();
        for (Types.NestedField field : SampleTables.EVENTS.columns()) {
            columnSizes.put(field.fieldId(), sizeBytes / SampleTables.EVENTS.columns().size());
            valueCounts.put(field.fieldId(), records);
            nullCounts.put(field.fieldId(), field.isRequired() ? 0L : records / 10);
        }
        long dayStartMicros = epochDay * MICROS_PER_DAY;
        Map<Integer, ByteBuffer> lower = new HashMap<>();
        Map<Integer, ByteBuffer> upper = new HashMap<>();
        long firstId = (long) file * 1_000_000L;
        lower.put(1, Conversions.toByteBuffer(Types.LongType.get(), firstId));
        upper.put(1, Conversions.toByteBuffer(Types.LongType.get(), firstId + records - 1));
        lower.put(2, Conversions.toByteBuffer(Types.TimestampType.withZone(), dayStartMicros));
        upper.put(2, Conversions.toByteBuffer(Types.TimestampType.withZone(), dayStartMicros + MICROS_PER_DAY - 1));
        lower.put(6, Conversions.toByteBuffer(Types.IntegerType.get(), 0));
        upper.put(6, Conversions.toByteBuffer(Types.IntegerType.get(), 1000));
        return new Metrics(records, columnSizes, valueCounts, nullCounts, Map.of(), lower, upper);
    }
}
