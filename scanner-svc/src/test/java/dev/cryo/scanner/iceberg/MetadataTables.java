package dev.cryo.scanner.iceberg;

import dev.cryo.contracts.event.FileSizeHistogram;
import dev.cryo.contracts.event.FileSizeTerms;
import dev.cryo.contracts.event.PartitionStats;
import dev.cryo.scanner.domain.PartitionKey;
import dev.cryo.scanner.domain.PartitionTotals;
import org.apache.iceberg.DataTask;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataTableType;
import org.apache.iceberg.MetadataTableUtils;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The reference the scanner is checked against: Iceberg's own metadata tables ({@code files},
 * {@code delete_files}, {@code manifests}, {@code snapshots}) read through the Iceberg API, and
 * the same per-partition sums computed from their rows.
 */
final class MetadataTables {

    private MetadataTables() {
    }

    /** Rows of a metadata table as maps from column name to value. */
    static List<Map<String, Object>> rows(Table table, MetadataTableType type) {
        Table metadataTable = MetadataTableUtils.createMetadataTableInstance(table, type);
        List<Types.NestedField> columns = metadataTable.schema().columns();
        List<Map<String, Object>> rows = new ArrayList<>();
        try (CloseableIterable<FileScanTask> tasks = metadataTable.newScan().planFiles()) {
            for (FileScanTask task : tasks) {
                try (CloseableIterable<StructLike> taskRows = ((DataTask) task).rows()) {
                    for (StructLike row : taskRows) {
                        Map<String, Object> values = new HashMap<>();
                        for (int i = 0; i < columns.size(); i++) {
                            values.put(columns.get(i).name(), row.get(i, Object.class));
                        }
                        rows.add(values);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return rows;
    }

    /** Per-partition statistics computed from the {@code files} and {@code delete_files} tables. */
    static Map<PartitionKey, PartitionStats> expectedPartitions(Table table, FileSizeTerms terms) {
        Types.StructType unified = org.apache.iceberg.Partitioning.partitionType(table);
        Map<PartitionKey, PartitionTotals> totals = new TreeMap<>();
        Function<Map<String, Object>, PartitionTotals> totalsOf = row -> {
            int specId = (Integer) row.get("spec_id");
            PartitionKey key = new PartitionKey(specId, values(table.specs().get(specId), unified, (StructLike) row.get("partition")));
            return totals.computeIfAbsent(key, PartitionTotals::new);
        };
        for (Map<String, Object> row : rows(table, MetadataTableType.FILES)) {
            if ((Integer) row.get("content") == 0) {
                totalsOf.apply(row).addDataFile((Long) row.get("file_size_in_bytes"), (Long) row.get("record_count"), terms);
            }
        }
        for (Map<String, Object> row : rows(table, MetadataTableType.DELETE_FILES)) {
            int content = (Integer) row.get("content");
            if (content == 1) {
                totalsOf.apply(row).addPositionDeletes((Long) row.get("record_count"));
            } else if (content == 2) {
                totalsOf.apply(row).addEqualityDeletes((Long) row.get("record_count"));
            }
        }
        Map<PartitionKey, PartitionStats> expected = new TreeMap<>();
        totals.forEach((key, value) -> expected.put(key, value.toStats()));
        return expected;
    }

    private static List<String> values(PartitionSpec spec, Types.StructType unified, StructLike partition) {
        List<String> values = new ArrayList<>();
        for (PartitionField field : spec.fields()) {
            int position = unified.fields().indexOf(unified.field(field.fieldId()));
            values.add(partition == null || position < 0 ? null : PartitionValues.toText(partition.get(position, Object.class)));
        }
        return values;
    }

    static long histogramTotal(List<Long> histogram) {
        return histogram.stream().mapToLong(Long::longValue).sum();
    }

    static int buckets() {
        return FileSizeHistogram.BUCKETS;
    }
}
