package dev.cryo.enginesql.trino;

import dev.cryo.enginesql.Limitation;
import dev.cryo.enginesql.NotExpressibleException;
import dev.cryo.enginesql.expression.CannotRenderException;
import dev.cryo.enginesql.expression.PartitionField;
import dev.cryo.enginesql.expression.Sql;
import dev.cryo.enginesql.expression.SqlValue;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The value of Trino's hidden {@code "$partition"} column for one partition: Iceberg's partition
 * path, {@code field=value/field=value}, with each field name and each human-readable value
 * URL-encoded (UTF-8, space as {@code +}), as {@code PartitionSpec.partitionToPath} writes it.
 * Trino 476 enforces {@code "$partition" IN (…)} in optimize, for every transform and across
 * evolved specs; an unpartitioned spec's path is the empty string.
 *
 * <p>The path names every field of the spec. Void fields (format v1 tables that dropped a field)
 * are not in the plan, so for such specs the path does not match and optimize rewrites nothing.
 */
final class TrinoPartitionPaths {

    static String path(List<PartitionField> fields) {
        return fields.stream()
                .map(field -> encode(field.predicate().field()) + "=" + encode(humanValue(field)))
                .collect(Collectors.joining("/"));
    }

    private static String humanValue(PartitionField field) {
        if (field.isNullValue()) {
            return "null";
        }
        String value = field.predicate().value();
        try {
            return switch (field.transform().kind()) {
                case IDENTITY, TRUNCATE -> human(field.value());
                case BUCKET -> Integer.toString(field.bucketNumber());
                case YEAR -> String.format(Locale.ROOT, "%04d", 1970 + Integer.parseInt(value));
                case MONTH -> {
                    int months = Integer.parseInt(value);
                    yield String.format(Locale.ROOT, "%04d-%02d", 1970 + Math.floorDiv(months, 12), 1 + Math.floorMod(months, 12));
                }
                case DAY -> {
                    LocalDate day = LocalDate.ofEpochDay(Integer.parseInt(value));
                    yield String.format(Locale.ROOT, "%04d-%02d-%02d", day.getYear(), day.getMonthValue(), day.getDayOfMonth());
                }
                case HOUR -> {
                    LocalDateTime hour = LocalDateTime.ofEpochSecond(Integer.parseInt(value) * 3600L, 0, ZoneOffset.UTC);
                    yield String.format(Locale.ROOT, "%04d-%02d-%02d-%02d",
                            hour.getYear(), hour.getMonthValue(), hour.getDayOfMonth(), hour.getHour());
                }
                case VOID, OTHER -> throw new NotExpressibleException(Limitation.TRANSFORM_NOT_ADDRESSABLE,
                        "Cannot address " + field.describe() + " on Trino: Cryo knows no partition path of this transform");
            };
        } catch (NumberFormatException e) {
            throw new CannotRenderException("Cannot render " + field.describe() + ": value '"
                    + Sql.printable(value) + "' is not a partition ordinal", e);
        }
    }

    /** Iceberg's {@code Transform.toHumanString} of a value: Java's own text forms. */
    private static String human(SqlValue value) {
        if (value instanceof SqlValue.Text text) {
            return text.value();
        } else if (value instanceof SqlValue.Int whole) {
            return Integer.toString(whole.value());
        } else if (value instanceof SqlValue.BigInt whole) {
            return Long.toString(whole.value());
        } else if (value instanceof SqlValue.Decimal decimal) {
            return decimal.value().toString();
        } else if (value instanceof SqlValue.Real real) {
            return Float.toString(real.value());
        } else if (value instanceof SqlValue.DoublePrecision number) {
            return Double.toString(number.value());
        } else if (value instanceof SqlValue.Bool bool) {
            return Boolean.toString(bool.value());
        } else if (value instanceof SqlValue.Date date) {
            return date.value().toString();
        } else if (value instanceof SqlValue.Time time) {
            return time.value().toString();
        } else if (value instanceof SqlValue.LocalTimestamp timestamp) {
            return timestamp.value().toString();
        } else if (value instanceof SqlValue.ZonedTimestamp timestamp) {
            return timestamp.value().atOffset(ZoneOffset.UTC).toString();
        } else if (value instanceof SqlValue.Binary binary) {
            return Base64.getEncoder().encodeToString(HexFormat.of().parseHex(binary.hex()));
        } else if (value instanceof SqlValue.Uuid uuid) {
            return uuid.value().toString();
        }
        throw new IllegalStateException("unknown value " + value.getClass());
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    private TrinoPartitionPaths() {
    }
}
