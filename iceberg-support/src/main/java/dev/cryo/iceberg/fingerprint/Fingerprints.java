package dev.cryo.iceberg.fingerprint;

import dev.cryo.iceberg.io.ReadView;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Computes {@link Fingerprint}s of tables, of parts of tables, and of rows.
 *
 * <p>On format v3 and later a table's fingerprint covers each row's lineage as well
 * ({@code _row_id}, {@code _last_updated_sequence_number}): the spec requires a rewrite to carry
 * both unchanged, so a rewrite that re-assigned them changed the table as surely as one that
 * changed a value.
 */
public final class Fingerprints {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    /** One per thread: a hasher keeps its buffer from row to row. */
    private static final ThreadLocal<RowHasher> HASHERS = ThreadLocal.withInitial(RowHasher::new);

    /** Every live row of the table's current snapshot, deletes applied, with its lineage from format v3 on. */
    public static Fingerprint ofTable(Table table) {
        if (table.currentSnapshot() == null) {
            return Fingerprint.EMPTY;
        }
        return of(table, table.currentSnapshot().snapshotId(), Expressions.alwaysTrue());
    }

    /**
     * The live rows of a snapshot that match the filter (whole partitions, typically), deletes
     * applied, with their lineage from format v3 on: the columns of {@link #schemaOf(Table)}.
     */
    public static Fingerprint of(Table table, long snapshotId, Expression filter) {
        return of(table, snapshotId, filter, schemaOf(table));
    }

    /**
     * The data columns only of every live row of the current snapshot, whatever the format
     * version: to compare a table with rows kept elsewhere (a writer's ledger, the rows a test
     * wrote), which have no lineage.
     */
    public static Fingerprint ofTableData(Table table) {
        if (table.currentSnapshot() == null) {
            return Fingerprint.EMPTY;
        }
        return of(table, table.currentSnapshot().snapshotId(), Expressions.alwaysTrue(), table.schema());
    }

    /**
     * The columns a table's fingerprint covers: the table's, and from format v3 on the two row
     * lineage columns after them.
     */
    public static Schema schemaOf(Table table) {
        return TableUtil.formatVersion(table) >= 3 ? MetadataColumns.schemaWithRowLineage(table.schema()) : table.schema();
    }

    private static Fingerprint of(Table table, long snapshotId, Expression filter, Schema schema) {
        // Projected explicitly, so that the rows read have exactly the columns hashed, even at a
        // snapshot written with an older schema. Read through a ReadView: a plain read of a table of
        // many small files spends most of its CPU copying Hadoop's configuration once per file.
        try (CloseableIterable<Record> rows = IcebergGenerics.read(ReadView.of(table)).useSnapshot(snapshotId).where(filter)
                .project(schema).build()) {
            return of(schema, rows);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot fingerprint " + table.name() + ": " + e.getMessage(), e);
        }
    }

    /** Rows of the given schema, in any order. */
    public static Fingerprint of(Schema schema, Iterable<? extends StructLike> rows) {
        long count = 0;
        long sum = 0;
        for (StructLike row : rows) {
            count++;
            sum += hashRow(schema.asStruct(), row);
        }
        return new Fingerprint(count, sum);
    }

    /** The 64-bit hash of one row: every column, with its field id, in schema order. */
    public static long hashRow(Types.StructType struct, StructLike row) {
        RowHasher hasher = HASHERS.get();
        putStruct(hasher, struct, row);
        return hasher.hash();
    }

    private static void putStruct(RowHasher hasher, Types.StructType struct, StructLike row) {
        List<Types.NestedField> fields = struct.fields();
        for (int i = 0; i < fields.size(); i++) {
            Types.NestedField field = fields.get(i);
            hasher.putInt(field.fieldId());
            Object value = row instanceof Record record ? record.get(i) : row.get(i, Object.class);
            putValue(hasher, field.type(), value);
        }
    }

    @SuppressWarnings("unchecked")
    private static void putValue(RowHasher hasher, Type type, Object value) {
        if (value == null) {
            hasher.putByte((byte) 0);
            return;
        }
        hasher.putByte((byte) 1);
        switch (type.typeId()) {
            case BOOLEAN -> hasher.putBoolean((Boolean) value);
            case INTEGER -> hasher.putInt(((Number) value).intValue());
            case LONG -> hasher.putLong(((Number) value).longValue());
            case FLOAT -> hasher.putFloat(((Number) value).floatValue());
            case DOUBLE -> hasher.putDouble(((Number) value).doubleValue());
            case DATE -> hasher.putLong(value instanceof LocalDate date ? date.toEpochDay() : ((Number) value).longValue());
            // Internal representation: microseconds of the day.
            case TIME -> hasher.putLong(value instanceof LocalTime time ? time.toNanoOfDay() : ((Number) value).longValue() * 1000);
            case TIMESTAMP -> hasher.putLong(epochNanos(value, 1000));
            case TIMESTAMP_NANO -> hasher.putLong(epochNanos(value, 1));
            case STRING, UUID -> hasher.putString(value.toString());
            case FIXED, BINARY -> hasher.putBytes(bytes(value));
            case DECIMAL -> {
                BigDecimal decimal = (BigDecimal) value;
                hasher.putInt(decimal.scale());
                hasher.putBytes(decimal.unscaledValue().toByteArray());
            }
            case STRUCT -> putStruct(hasher, type.asStructType(), (StructLike) value);
            case LIST -> {
                List<Object> list = (List<Object>) value;
                hasher.putInt(list.size());
                for (Object element : list) {
                    putValue(hasher, type.asListType().elementType(), element);
                }
            }
            case MAP -> {
                // Map entries have no order: hash each entry alone and add the entry hashes.
                Map<Object, Object> map = (Map<Object, Object>) value;
                long entries = 0;
                for (Map.Entry<Object, Object> entry : map.entrySet()) {
                    RowHasher entryHasher = new RowHasher();
                    putValue(entryHasher, type.asMapType().keyType(), entry.getKey());
                    putValue(entryHasher, type.asMapType().valueType(), entry.getValue());
                    entries += entryHasher.hash();
                }
                hasher.putInt(map.size()).putLong(entries);
            }
            default -> hasher.putString(value.toString());
        }
    }

    /** {@code nanosPerUnit}: what one unit of the internal representation (a long) is worth in nanoseconds. */
    private static long epochNanos(Object value, long nanosPerUnit) {
        if (value instanceof OffsetDateTime offset) {
            return Math.addExact(Math.multiplyExact(offset.toEpochSecond(), NANOS_PER_SECOND), offset.getNano());
        }
        if (value instanceof LocalDateTime local) {
            return Math.addExact(Math.multiplyExact(local.toEpochSecond(ZoneOffset.UTC), NANOS_PER_SECOND), local.getNano());
        }
        // Internal representation: microseconds (timestamp) or nanoseconds (timestamp_ns) since the epoch.
        return Math.multiplyExact(((Number) value).longValue(), nanosPerUnit);
    }

    private static byte[] bytes(Object value) {
        if (value instanceof byte[] array) {
            return array;
        }
        if (value instanceof ByteBuffer buffer) {
            ByteBuffer copy = buffer.duplicate();
            byte[] array = new byte[copy.remaining()];
            copy.get(array);
            return array;
        }
        if (value instanceof UUID uuid) {
            return uuid.toString().getBytes(StandardCharsets.UTF_8);
        }
        throw new IllegalArgumentException("Cannot hash a binary value of class " + value.getClass().getName());
    }

    private Fingerprints() {
    }
}
