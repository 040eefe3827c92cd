package dev.cryo.enginesql.expression;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * The Iceberg type of a partition's source column, as Iceberg prints it ({@code int},
 * {@code timestamptz}, {@code decimal(10, 2)}, {@code fixed[16]}, …).
 *
 * @param kind the type
 * @param precision decimal precision (0 for the others)
 * @param scale decimal scale (0 for the others)
 * @param text the type as it was given
 */
public record SourceType(Kind kind, int precision, int scale, String text) {

    public enum Kind {
        BOOLEAN, INT, LONG, FLOAT, DOUBLE, DECIMAL, DATE, TIME, TIMESTAMP, TIMESTAMPTZ, TIMESTAMP_NS, TIMESTAMPTZ_NS,
        STRING, UUID, FIXED, BINARY, OTHER
    }

    private static final Pattern DECIMAL = Pattern.compile("decimal\\(\\s*(\\d{1,2})\\s*,\\s*(\\d{1,2})\\s*\\)");
    private static final Pattern FIXED = Pattern.compile("fixed\\[\\d{1,9}]");

    public SourceType {
        requireNonNull(kind, "kind is null");
        requireNonNull(text, "text is null");
    }

    public static SourceType parse(String text) {
        requireNonNull(text, "source type is null");
        String normalized = text.trim().toLowerCase(Locale.ROOT);
        Matcher decimal = DECIMAL.matcher(normalized);
        if (decimal.matches()) {
            return new SourceType(Kind.DECIMAL, Integer.parseInt(decimal.group(1)), Integer.parseInt(decimal.group(2)), text);
        }
        if (FIXED.matcher(normalized).matches()) {
            return new SourceType(Kind.FIXED, 0, 0, text);
        }
        Kind kind = switch (normalized) {
            case "boolean" -> Kind.BOOLEAN;
            case "int", "integer" -> Kind.INT;
            case "long" -> Kind.LONG;
            case "float" -> Kind.FLOAT;
            case "double" -> Kind.DOUBLE;
            case "date" -> Kind.DATE;
            case "time" -> Kind.TIME;
            case "timestamp" -> Kind.TIMESTAMP;
            case "timestamptz" -> Kind.TIMESTAMPTZ;
            case "timestamp_ns" -> Kind.TIMESTAMP_NS;
            case "timestamptz_ns" -> Kind.TIMESTAMPTZ_NS;
            case "string" -> Kind.STRING;
            case "uuid" -> Kind.UUID;
            case "binary" -> Kind.BINARY;
            default -> Kind.OTHER;
        };
        return new SourceType(kind, 0, 0, text);
    }

    /** Nanosecond timestamps: Iceberg v3. */
    public boolean isNanosecondTimestamp() {
        return kind == Kind.TIMESTAMP_NS || kind == Kind.TIMESTAMPTZ_NS;
    }
}
