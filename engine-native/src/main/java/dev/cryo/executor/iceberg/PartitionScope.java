package dev.cryo.executor.iceberg;

import dev.cryo.contracts.event.FieldPredicate;
import dev.cryo.contracts.event.PartitionPredicate;
import dev.cryo.executor.ExecutorErrorCode;
import dev.cryo.platform.error.CryoException;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.transforms.Transform;
import org.apache.iceberg.types.Comparators;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The exact partitions a chunk addresses. {@link #filter()} prunes manifests and files when
 * planning; {@link #contains(ContentFile)} then keeps only files of the predicate's spec whose
 * partition tuple equals the predicate's values, so a file of an evolved spec, or of a
 * neighbouring partition that the source-column range also touches, is never rewritten by mistake.
 */
final class PartitionScope {

    private static final Pattern PARAMETERIZED = Pattern.compile("(bucket|truncate)\\[(\\d+)]");

    private final List<Addressed> partitions;
    private final Expression filter;

    private record Addressed(int specId, StructLike tuple, List<Type> types, PartitionPredicate predicate) {
    }

    private PartitionScope(List<Addressed> partitions, Expression filter) {
        this.partitions = partitions;
        this.filter = filter;
    }

    /**
     * The scope of the given predicates on the table.
     *
     * @throws CryoException INVALID_PREDICATE when a predicate names an unknown spec, field, column or transform
     */
    static PartitionScope of(Table table, List<PartitionPredicate> predicates) {
        if (predicates.isEmpty()) {
            throw invalid("the chunk names no partition");
        }
        List<Addressed> partitions = new ArrayList<>();
        Expression filter = Expressions.alwaysFalse();
        for (PartitionPredicate predicate : predicates) {
            PartitionSpec spec = table.specs().get(predicate.specId());
            if (spec == null) {
                throw invalid("table " + table.name() + " has no partition spec " + predicate.specId()
                        + " (specs: " + table.specs().keySet() + ")");
            }
            if (spec.fields().size() != predicate.fields().size()) {
                throw invalid("spec " + spec.specId() + " has fields " + fieldNames(spec) + " but the predicate gives "
                        + predicate.fields().stream().map(FieldPredicate::field).toList());
            }
            Object[] values = new Object[spec.fields().size()];
            List<Type> types = new ArrayList<>();
            Expression partitionFilter = Expressions.alwaysTrue();
            for (int i = 0; i < spec.fields().size(); i++) {
                PartitionField field = spec.fields().get(i);
                FieldPredicate given = predicate.fields().stream().filter(f -> f.field().equals(field.name()))
                        .findFirst().orElseThrow(() -> invalid("spec " + spec.specId() + " field " + field.name()
                                + " has no predicate"));
                Types.NestedField source = table.schema().findField(field.sourceId());
                if (source == null) {
                    throw invalid("partition field " + field.name() + " reads column id " + field.sourceId()
                            + ", which the current schema no longer has");
                }
                if (!source.name().equals(given.sourceColumn())) {
                    throw invalid("partition field " + field.name() + " reads column " + source.name() + ", not "
                            + given.sourceColumn());
                }
                String transform = field.transform().toString();
                if (!transform.equals(given.transform())) {
                    throw invalid("partition field " + field.name() + " of spec " + spec.specId() + " is "
                            + transform + ", not " + given.transform());
                }
                Type resultType = field.transform().getResultType(source.type());
                values[i] = given.isNullValue() ? null : parse(resultType, given.value(), field.name());
                types.add(resultType);
                partitionFilter = Expressions.and(partitionFilter,
                        fieldFilter(source, field.transform(), transform, given, values[i]));
            }
            partitions.add(new Addressed(spec.specId(), new PartitionTuple(values), types, predicate));
            filter = Expressions.or(filter, partitionFilter);
        }
        return new PartitionScope(List.copyOf(partitions), filter);
    }

    /** The row filter that covers every addressed partition (and possibly files of other specs). */
    Expression filter() {
        return filter;
    }

    /** Whether the file lies in exactly one of the addressed partitions. */
    boolean contains(ContentFile<?> file) {
        return indexOf(file) >= 0;
    }

    /** The index of the addressed partition the file lies in, or -1. */
    int indexOf(ContentFile<?> file) {
        for (int p = 0; p < partitions.size(); p++) {
            Addressed addressed = partitions.get(p);
            if (addressed.specId() == file.specId() && sameTuple(addressed, file.partition())) {
                return p;
            }
        }
        return -1;
    }

    int size() {
        return partitions.size();
    }

    PartitionPredicate predicate(int index) {
        return partitions.get(index).predicate();
    }

    private static boolean sameTuple(Addressed addressed, StructLike partition) {
        int size = addressed.types().size();
        if (partition.size() != size) {
            return false;
        }
        for (int i = 0; i < size; i++) {
            Type type = addressed.types().get(i);
            Object expected = addressed.tuple().get(i, Object.class);
            Object actual = partition.get(i, Object.class);
            if (expected == null || actual == null) {
                if (expected != actual) {
                    return false;
                }
                continue;
            }
            @SuppressWarnings("unchecked")
            Comparator<Object> comparator = (Comparator<Object>) Comparators.forType(type.asPrimitiveType());
            if (comparator.compare(expected, actual) != 0) {
                return false;
            }
        }
        return true;
    }

    private static Expression fieldFilter(Types.NestedField source, Transform<?, ?> transform, String transformName,
                                          FieldPredicate given, Object value) {
        String column = source.name();
        if (transformName.equals("void")) {
            return Expressions.alwaysTrue();
        }
        if (given.isNullValue()) {
            return Expressions.isNull(column);
        }
        if (transform.isIdentity()) {
            return Expressions.equal(column, value);
        }
        if (given.lowerInclusive() != null) {
            // Whole-partition range on the source column; Iceberg converts the text at bind time.
            return Expressions.and(Expressions.greaterThanOrEqual(column, given.lowerInclusive()),
                    Expressions.lessThan(column, given.upperExclusive()));
        }
        Matcher parameterized = PARAMETERIZED.matcher(transformName);
        if (parameterized.matches()) {
            int parameter = Integer.parseInt(parameterized.group(2));
            return parameterized.group(1).equals("bucket")
                    ? Expressions.equal(Expressions.bucket(column, parameter), value)
                    : Expressions.equal(Expressions.truncate(column, parameter), value);
        }
        return switch (transformName) {
            case "year" -> Expressions.equal(Expressions.year(column), value);
            case "month" -> Expressions.equal(Expressions.month(column), value);
            case "day" -> Expressions.equal(Expressions.day(column), value);
            case "hour" -> Expressions.equal(Expressions.hour(column), value);
            default -> throw invalid("transform " + transformName + " of column " + column + " is not supported");
        };
    }

    /** A partition value in Iceberg's internal representation, from its text (numbers, or ISO text for dates and times). */
    static Object parse(Type type, String text, String field) {
        try {
            return switch (type.typeId()) {
                case INTEGER -> Integer.parseInt(text.trim());
                case LONG -> Long.parseLong(text.trim());
                case DATE -> isInteger(text) ? Integer.parseInt(text.trim()) : (int) LocalDate.parse(text.trim()).toEpochDay();
                case TIMESTAMP -> isInteger(text) ? Long.parseLong(text.trim()) : timestampMicros(text.trim(),
                        ((Types.TimestampType) type).shouldAdjustToUTC());
                case STRING -> text;
                case BOOLEAN -> Boolean.parseBoolean(text.trim());
                case FLOAT -> Float.parseFloat(text.trim());
                case DOUBLE -> Double.parseDouble(text.trim());
                case DECIMAL -> new BigDecimal(text.trim()).setScale(((Types.DecimalType) type).scale());
                case UUID -> UUID.fromString(text.trim());
                default -> Conversions.fromPartitionString(type, text);
            };
        } catch (RuntimeException e) {
            throw invalid("partition field " + field + " value '" + text + "' is not a " + type + ": " + e.getMessage());
        }
    }

    private static long timestampMicros(String text, boolean withZone) {
        if (withZone) {
            return ChronoUnit.MICROS.between(OffsetDateTime.of(1970, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC),
                    OffsetDateTime.parse(text));
        }
        return ChronoUnit.MICROS.between(LocalDateTime.of(1970, 1, 1, 0, 0), LocalDateTime.parse(text));
    }

    private static boolean isInteger(String text) {
        return text.trim().matches("-?\\d+");
    }

    private static List<String> fieldNames(PartitionSpec spec) {
        return spec.fields().stream().map(PartitionField::name).toList();
    }

    private static CryoException invalid(String reason) {
        return new CryoException(ExecutorErrorCode.INVALID_PREDICATE, "Cannot address partition: " + reason);
    }

    @Override
    public String toString() {
        return partitions.stream().map(p -> p.specId() + ":" + p.tuple()).toList().toString();
    }
}
