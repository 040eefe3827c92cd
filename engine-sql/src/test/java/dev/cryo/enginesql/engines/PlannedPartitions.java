package dev.cryo.enginesql.engines;

import dev.cryo.contracts.event.FieldPredicate;
import dev.cryo.contracts.event.PartitionPredicate;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.types.Type;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.YearMonth;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A partition of a real table as the planner puts it in a plan: Iceberg's internal value as text
 * and, for temporal and string-truncate fields, the half-open source range of the whole partition.
 */
final class PlannedPartitions {

    private static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss", Locale.ROOT);

    static PartitionPredicate of(PartitionSpec spec, StructLike partition) {
        List<FieldPredicate> fields = new ArrayList<>();
        for (int i = 0; i < spec.fields().size(); i++) {
            PartitionField field = spec.fields().get(i);
            Type source = spec.schema().findType(field.sourceId());
            String column = spec.schema().findColumnName(field.sourceId());
            Object value = partition.get(i, Object.class);
            String text = value == null ? null : value instanceof BigDecimal decimal ? decimal.toPlainString() : value.toString();
            String transform = field.transform().toString();
            String[] range = value == null ? null : range(transform, source.toString(), text);
            fields.add(new FieldPredicate(field.name(), column, source.toString(), transform, text,
                    range == null ? null : range[0], range == null ? null : range[1], text));
        }
        return new PartitionPredicate(spec.specId(), fields);
    }

    private static String[] range(String transform, String sourceType, String value) {
        LocalDateTime lower;
        LocalDateTime upper;
        switch (transform) {
            case "year" -> {
                lower = LocalDate.of(1970 + Integer.parseInt(value), 1, 1).atStartOfDay();
                upper = lower.plusYears(1);
            }
            case "month" -> {
                lower = YearMonth.of(1970, 1).plusMonths(Integer.parseInt(value)).atDay(1).atStartOfDay();
                upper = lower.plusMonths(1);
            }
            case "day" -> {
                lower = LocalDate.ofEpochDay(Integer.parseInt(value)).atStartOfDay();
                upper = lower.plusDays(1);
            }
            case "hour" -> {
                lower = LocalDate.ofEpochDay(0).atStartOfDay().plusHours(Integer.parseInt(value));
                upper = lower.plusHours(1);
            }
            default -> {
                if (transform.startsWith("truncate[") && sourceType.equals("string")) {
                    int width = Integer.parseInt(transform.substring("truncate[".length(), transform.length() - 1));
                    if (value.codePointCount(0, value.length()) < width) {
                        return null;
                    }
                    return new String[] {value, value.substring(0, value.length() - 1) + (char) (value.charAt(value.length() - 1) + 1)};
                }
                return null;
            }
        }
        return switch (sourceType) {
            case "date" -> new String[] {lower.toLocalDate().toString(), upper.toLocalDate().toString()};
            case "timestamp" -> new String[] {LOCAL.format(lower), LOCAL.format(upper)};
            case "timestamptz" -> new String[] {LOCAL.format(lower) + "Z", LOCAL.format(upper) + "Z"};
            default -> null;
        };
    }

    private PlannedPartitions() {
    }
}
