package dev.cryo.scanner.iceberg;

import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;

/**
 * Partition values as the strings of {@code PartitionStats.values}: Iceberg's internal
 * representation printed plainly (day = days since epoch, hour = hours since epoch, bucket =
 * the bucket number, timestamps = microseconds, decimals without exponent, binary as lower-case
 * hex), and back.
 */
public final class PartitionValues {

    private static final HexFormat HEX = HexFormat.of();

    /** The partition tuple of a file as strings, one per field of its spec. */
    public static List<String> of(PartitionSpec spec, StructLike partition) {
        int size = spec.fields().size();
        List<String> values = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            values.add(partition == null ? null : toText(partition.get(i, Object.class)));
        }
        return values;
    }

    public static String toText(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof BigDecimal decimal) {
            return decimal.toPlainString();
        }
        if (value instanceof ByteBuffer buffer) {
            ByteBuffer copy = buffer.duplicate();
            byte[] bytes = new byte[copy.remaining()];
            copy.get(bytes);
            return HEX.formatHex(bytes);
        }
        if (value instanceof byte[] bytes) {
            return HEX.formatHex(bytes);
        }
        return value.toString();
    }

    /** The internal value of a partition field of that result type, from its text. */
    public static Object fromText(Type type, String text) {
        if (text == null) {
            return null;
        }
        return switch (type.typeId()) {
            case BOOLEAN -> Boolean.parseBoolean(text);
            case INTEGER, DATE -> Integer.parseInt(text);
            case LONG, TIME, TIMESTAMP, TIMESTAMP_NANO -> Long.parseLong(text);
            case FLOAT -> Float.parseFloat(text);
            case DOUBLE -> Double.parseDouble(text);
            case STRING -> text;
            case UUID -> UUID.fromString(text);
            case FIXED, BINARY -> ByteBuffer.wrap(HEX.parseHex(text));
            case DECIMAL -> new BigDecimal(text).setScale(((Types.DecimalType) type).scale());
            default -> throw new IllegalArgumentException("Cannot read partition value of type " + type + ": unsupported");
        };
    }

    private PartitionValues() {
    }
}
