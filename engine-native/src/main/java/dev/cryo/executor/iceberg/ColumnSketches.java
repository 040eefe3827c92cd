package dev.cryo.executor.iceberg;

import org.apache.datasketches.theta.CompactSketch;
import org.apache.datasketches.theta.SetOperation;
import org.apache.datasketches.theta.Union;
import org.apache.datasketches.theta.UpdateSketch;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One Apache DataSketches theta sketch per top-level primitive column of a table schema, fed each
 * value in Iceberg's single-value binary form (what compute_statistics registers, the way Iceberg's
 * Spark and Trino engines write them). Sketches of disjoint sets of rows union into the sketch of
 * all of them, so rows already read for another reason (a rewrite's read-back) need not be read again.
 * Not thread-safe: one instance per reading thread, then {@link #union}.
 */
final class ColumnSketches {

    private final List<Types.NestedField> columns;
    private final List<UpdateSketch> sketches = new ArrayList<>();

    ColumnSketches(Schema tableSchema) {
        this.columns = columnsOf(tableSchema);
        columns.forEach(column -> sketches.add(UpdateSketch.builder().build()));
    }

    /** The columns a statistics file covers: the schema's top-level primitive columns. */
    static List<Types.NestedField> columnsOf(Schema tableSchema) {
        return tableSchema.columns().stream().filter(column -> column.type().isPrimitiveType()).toList();
    }

    /**
     * A reader of rows projected to {@code rowSchema} (which holds every column of the table schema, in any
     * order, possibly with more): adds each row's values to the sketches.
     */
    Feeder feeder(Schema rowSchema) {
        int[] positions = new int[columns.size()];
        for (int i = 0; i < positions.length; i++) {
            positions[i] = rowSchema.columns().indexOf(rowSchema.findField(columns.get(i).fieldId()));
            if (positions[i] < 0) {
                throw new IllegalArgumentException("Cannot sketch column " + columns.get(i).name()
                        + ": the rows read do not hold it");
            }
        }
        InternalRecordWrapper internal = new InternalRecordWrapper(rowSchema.asStruct());
        return row -> {
            StructLike values = internal.wrap(row);
            for (int i = 0; i < positions.length; i++) {
                Object value = values.get(positions[i], Object.class);
                if (value != null) {
                    ByteBuffer bytes = Conversions.toByteBuffer(columns.get(i).type(), value);
                    sketches.get(i).update(bytes);
                }
            }
        };
    }

    /** Adds rows to the sketches. */
    interface Feeder {
        void add(Record row);
    }

    /** The compact sketches by field id, in column order. */
    Map<Integer, CompactSketch> compact() {
        Map<Integer, CompactSketch> compact = new LinkedHashMap<>();
        for (int i = 0; i < columns.size(); i++) {
            compact.put(columns.get(i).fieldId(), sketches.get(i).compact());
        }
        return compact;
    }

    /** The union, field by field, of sketches over disjoint (or not) sets of rows. */
    static Map<Integer, CompactSketch> union(List<Map<Integer, CompactSketch>> parts) {
        Map<Integer, Union> unions = new LinkedHashMap<>();
        for (Map<Integer, CompactSketch> part : parts) {
            part.forEach((fieldId, sketch) -> unions
                    .computeIfAbsent(fieldId, ignored -> SetOperation.builder().buildUnion())
                    .union(sketch));
        }
        Map<Integer, CompactSketch> result = new LinkedHashMap<>();
        unions.forEach((fieldId, union) -> result.put(fieldId, union.getResult()));
        return result;
    }
}
