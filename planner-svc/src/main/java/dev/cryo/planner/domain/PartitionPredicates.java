package dev.cryo.planner.domain;

import dev.cryo.contracts.Transform;
import dev.cryo.contracts.event.FieldPredicate;
import dev.cryo.contracts.event.PartitionFieldInfo;
import dev.cryo.contracts.event.PartitionPredicate;
import dev.cryo.contracts.event.PartitionSpecInfo;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.YearMonth;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Partition predicates as data: one {@link FieldPredicate} per spec field, addressed by the spec
 * the partition's files were written with, so a table whose spec evolved gets predicates of each
 * spec its live files use.
 *
 * <p>For year, month, day, hour and truncate the predicate also carries the half-open source range
 * {@code [lowerInclusive, upperExclusive)} that holds exactly the partition's rows. Identity and
 * bucket have no range (the value itself, or the bucket number, addresses the partition), and a
 * range is left out, with the reason in {@code humanValue}, wherever it cannot be written exactly:
 * a truncated string shorter than the width (the partition is that one value), a prefix of only
 * U+10FFFF code points (no next prefix), an upper bound beyond the source type's range.
 * Void fields are skipped: every row has the same (null) value there.
 */
public final class PartitionPredicates {

    private static final Pattern DECIMAL = Pattern.compile("decimal\\(\\s*(\\d+)\\s*,\\s*(\\d+)\\s*\\)");
    private static final DateTimeFormatter LOCAL_TIMESTAMP = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss", Locale.ROOT);
    private static final DateTimeFormatter HOUR_TEXT = DateTimeFormatter.ofPattern("uuuu-MM-dd-HH", Locale.ROOT);
    private static final LocalDate EPOCH = LocalDate.ofEpochDay(0);
    private static final YearMonth EPOCH_MONTH = YearMonth.of(1970, 1);

    /**
     * The predicate that addresses exactly one partition.
     *
     * @param spec the spec the partition's files were written with
     * @param values the partition tuple in Iceberg's internal representation, one per spec field (null: null value)
     */
    public static PartitionPredicate of(PartitionSpecInfo spec, List<String> values) {
        if (values.size() != spec.fields().size()) {
            throw new IllegalArgumentException("Cannot address partition " + values + ": spec " + spec.specId()
                    + " has " + spec.fields().size() + " fields, the partition " + values.size() + " values");
        }
        List<FieldPredicate> fields = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            PartitionFieldInfo field = spec.fields().get(i);
            Transform transform = Transform.parse(field.transform());
            if (transform.kind() != Transform.Kind.VOID) {
                fields.add(field(field, transform, values.get(i)));
            }
        }
        return new PartitionPredicate(spec.specId(), fields);
    }

    private static FieldPredicate field(PartitionFieldInfo field, Transform transform, String value) {
        if (value == null) {
            return predicate(field, null, null, null, "null");
        }
        try {
            return switch (transform.kind()) {
                case IDENTITY, OTHER -> predicate(field, value, null, null, value);
                case BUCKET -> predicate(field, value, null, null,
                        "bucket " + Long.parseLong(value) + " of " + transform.parameter());
                case YEAR -> temporal(field, value, Integer.parseInt(value), ChronoUnitOfPartition.YEAR);
                case MONTH -> temporal(field, value, Integer.parseInt(value), ChronoUnitOfPartition.MONTH);
                case DAY -> temporal(field, value, Integer.parseInt(value), ChronoUnitOfPartition.DAY);
                case HOUR -> temporal(field, value, Integer.parseInt(value), ChronoUnitOfPartition.HOUR);
                case TRUNCATE -> truncate(field, value, transform.parameter());
                case VOID -> throw new IllegalStateException("void fields are skipped");
            };
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("Cannot address partition field " + field.name() + ": value '" + value
                    + "' is not a number of source type " + field.sourceType() + ", as transform "
                    + field.transform() + " requires", e);
        }
    }

    private enum ChronoUnitOfPartition { YEAR, MONTH, DAY, HOUR }

    private static FieldPredicate temporal(PartitionFieldInfo field, String value, int ordinal, ChronoUnitOfPartition unit) {
        String type = field.sourceType().trim().toLowerCase(Locale.ROOT);
        boolean date = type.equals("date");
        if (unit == ChronoUnitOfPartition.HOUR && date) {
            throw new IllegalArgumentException("Cannot address partition field " + field.name()
                    + ": the hour transform needs a timestamp column, " + field.sourceColumn() + " is a date");
        }
        LocalDateTime lower;
        LocalDateTime upper;
        String human;
        switch (unit) {
            case YEAR -> {
                lower = LocalDate.of(1970 + ordinal, 1, 1).atStartOfDay();
                upper = lower.plusYears(1);
                human = String.valueOf(lower.getYear());
            }
            case MONTH -> {
                YearMonth month = EPOCH_MONTH.plusMonths(ordinal);
                lower = month.atDay(1).atStartOfDay();
                upper = lower.plusMonths(1);
                human = month.toString();
            }
            case DAY -> {
                lower = EPOCH.plusDays(ordinal).atStartOfDay();
                upper = lower.plusDays(1);
                human = lower.toLocalDate().toString();
            }
            case HOUR -> {
                lower = EPOCH.atStartOfDay().plusHours(ordinal);
                upper = lower.plusHours(1);
                human = HOUR_TEXT.format(lower);
            }
            default -> throw new IllegalStateException("unknown unit " + unit);
        }
        return switch (type) {
            case "date" -> predicate(field, value, lower.toLocalDate().toString(), upper.toLocalDate().toString(), human);
            case "timestamp", "timestamp_ns" ->
                    predicate(field, value, LOCAL_TIMESTAMP.format(lower), LOCAL_TIMESTAMP.format(upper), human);
            case "timestamptz", "timestamptz_ns" ->
                    predicate(field, value, LOCAL_TIMESTAMP.format(lower) + "Z", LOCAL_TIMESTAMP.format(upper) + "Z", human);
            default -> predicate(field, value, null, null,
                    human + " (no source range: source type " + field.sourceType() + " is not a date or timestamp)");
        };
    }

    private static FieldPredicate truncate(PartitionFieldInfo field, String value, int width) {
        String type = field.sourceType().trim().toLowerCase(Locale.ROOT);
        if (type.equals("int") || type.equals("long")) {
            long lower = Long.parseLong(value);
            long limit = type.equals("int") ? Integer.MAX_VALUE : Long.MAX_VALUE;
            if (lower > limit - width) {
                return predicate(field, value, null, null, value + " (no source range: " + lower + " + " + width
                        + " is beyond the range of " + type + "; the partition holds every value from " + lower + ")");
            }
            return predicate(field, value, String.valueOf(lower), String.valueOf(lower + width), value);
        }
        Matcher decimal = DECIMAL.matcher(type);
        if (decimal.matches()) {
            return truncateDecimal(field, value, width, Integer.parseInt(decimal.group(1)), Integer.parseInt(decimal.group(2)));
        }
        if (type.equals("string")) {
            return truncateString(field, value, width);
        }
        return predicate(field, value, null, null,
                value + " (no source range: truncate on " + field.sourceType() + " is addressed by value)");
    }

    private static FieldPredicate truncateDecimal(PartitionFieldInfo field, String value, int width, int precision, int scale) {
        // Iceberg truncates the unscaled value: the partition spans width units of the last digit.
        BigDecimal lower = new BigDecimal(value).setScale(scale);
        BigDecimal upper = lower.add(BigDecimal.valueOf(width, scale));
        if (upper.precision() > precision) {
            return predicate(field, value, null, null, lower.toPlainString() + " (no source range: "
                    + upper.toPlainString() + " does not fit decimal(" + precision + ", " + scale
                    + "); the partition holds every value from " + lower.toPlainString() + ")");
        }
        return predicate(field, value, lower.toPlainString(), upper.toPlainString(), lower.toPlainString());
    }

    private static FieldPredicate truncateString(PartitionFieldInfo field, String value, int width) {
        int codePoints = value.codePointCount(0, value.length());
        if (codePoints < width) {
            // Only strings of at least `width` code points are cut: a shorter value is its own partition.
            return predicate(field, value, null, null, "'" + value + "' exactly (shorter than the truncation width "
                    + width + ", so no other string falls in this partition)");
        }
        String next = nextPrefix(value);
        if (next == null) {
            return predicate(field, value, null, null, "'" + value + "' prefix (no source range: no string sorts "
                    + "right after every string with this prefix)");
        }
        return predicate(field, value, value, next, "'" + value + "' prefix");
    }

    /** The smallest string above every string that starts with {@code prefix}, in code point order; null if none. */
    static String nextPrefix(String prefix) {
        int[] codePoints = prefix.codePoints().toArray();
        for (int i = codePoints.length - 1; i >= 0; i--) {
            if (codePoints[i] < Character.MAX_CODE_POINT) {
                int next = codePoints[i] + 1;
                if (next >= Character.MIN_SURROGATE && next <= Character.MAX_SURROGATE) {
                    next = Character.MAX_SURROGATE + 1;
                }
                StringBuilder result = new StringBuilder();
                for (int j = 0; j < i; j++) {
                    result.appendCodePoint(codePoints[j]);
                }
                return result.appendCodePoint(next).toString();
            }
        }
        return null;
    }

    private static FieldPredicate predicate(PartitionFieldInfo field, String value, String lower, String upper, String human) {
        return new FieldPredicate(field.name(), field.sourceColumn(), field.sourceType(), field.transform(), value,
                lower, upper, human);
    }

    private PartitionPredicates() {
    }
}
