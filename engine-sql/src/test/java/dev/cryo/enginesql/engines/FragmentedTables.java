package dev.cryo.enginesql.engines;

import dev.cryo.iceberg.fixtures.TableWriter;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Small fragmented tables: every append is one commit with one small file per partition, the
 * way a streaming writer leaves a table. Category values are hostile on purpose (quotes,
 * backslash, newline, emoji, null): they become identity and truncate partition values.
 */
final class FragmentedTables {

    static final List<String> CATEGORIES = Arrays.asList("o'neil", "back\\slash", "new\nline", "😀 emoji", null, "abcdef", "abcxyz", "ab");
    static final List<OffsetDateTime> TIMES = List.of(
            OffsetDateTime.of(2024, 1, 30, 10, 0, 0, 0, ZoneOffset.UTC),
            OffsetDateTime.of(2024, 1, 31, 10, 0, 0, 0, ZoneOffset.UTC),
            OffsetDateTime.of(2024, 1, 31, 11, 30, 0, 0, ZoneOffset.UTC),
            OffsetDateTime.of(2024, 2, 1, 10, 0, 0, 0, ZoneOffset.UTC));

    /** id, event_ts, the category column (named as given), amount, payload. */
    static Schema schema(String categoryColumn) {
        return new Schema(
                Types.NestedField.required(1, "id", Types.LongType.get()),
                Types.NestedField.required(2, "event_ts", Types.TimestampType.withZone()),
                Types.NestedField.optional(3, categoryColumn, Types.StringType.get()),
                Types.NestedField.optional(4, "amount", Types.DecimalType.of(12, 2)),
                Types.NestedField.optional(5, "payload", Types.StringType.get()));
    }

    static Table create(String namespace, String name, Schema schema, Function<PartitionSpec.Builder, PartitionSpec.Builder> spec) {
        return RealEngines.catalog().createTable(TableIdentifier.of(Namespace.of(namespace), name), schema,
                spec.apply(PartitionSpec.builderFor(schema)).build(), Map.of(TableProperties.FORMAT_VERSION, "2"));
    }

    /** {@code appends} commits of eight rows each (one per category, four timestamps). */
    static void fragment(Table table, int appends, long firstId) {
        TableWriter writer = new TableWriter(table);
        for (int k = 0; k < appends; k++) {
            List<Record> rows = new ArrayList<>();
            for (int i = 0; i < CATEGORIES.size(); i++) {
                Record row = GenericRecord.create(table.schema());
                row.set(0, firstId + k * 100L + i);
                row.set(1, TIMES.get(i % TIMES.size()).plusMinutes(k));
                row.set(2, CATEGORIES.get(i));
                row.set(3, BigDecimal.valueOf(1000L * k + i, 2));
                row.set(4, "payload-" + k + "-" + i);
                rows.add(row);
            }
            writer.append(rows);
        }
        table.refresh();
    }

    /** Live data files per partition, keyed {@code <spec id>:<partition path>}. */
    static Map<String, Integer> dataFilesByPartition(Table table) {
        table.refresh();
        Map<String, Integer> counts = new TreeMap<>();
        for (DataFile file : dataFiles(table)) {
            counts.merge(key(table, file.specId(), file.partition()), 1, Integer::sum);
        }
        return counts;
    }

    static List<DataFile> dataFiles(Table table) {
        List<DataFile> files = new ArrayList<>();
        if (table.currentSnapshot() == null) {
            return files;
        }
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            tasks.forEach(task -> files.add(task.file()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }

    static String key(Table table, int specId, StructLike partition) {
        return specId + ":" + table.specs().get(specId).partitionToPath(partition);
    }

    private FragmentedTables() {
    }
}
