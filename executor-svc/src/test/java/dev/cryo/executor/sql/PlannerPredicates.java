package dev.cryo.executor.sql;

import dev.cryo.contracts.event.FieldPredicate;
import dev.cryo.contracts.event.PartitionPredicate;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The predicate of a file's partition as the planner writes it: Iceberg's internal value as text,
 * and for day partitions the half-open source range of the whole day in the planner's format.
 * Identity and day fields are what the engine tests partition by.
 */
public final class PlannerPredicates {

    private static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss", Locale.ROOT);

    public static PartitionPredicate of(Table table, ContentFile<?> file) {
        PartitionSpec spec = table.specs().get(file.specId());
        List<FieldPredicate> fields = new ArrayList<>();
        for (int i = 0; i < spec.fields().size(); i++) {
            PartitionField field = spec.fields().get(i);
            Types.NestedField source = table.schema().findField(field.sourceId());
            Object value = file.partition().get(i, Object.class);
            String transform = field.transform().toString();
            String lower = null;
            String upper = null;
            if (value != null && transform.equals("day")) {
                LocalDateTime start = LocalDate.ofEpochDay(((Number) value).longValue()).atStartOfDay();
                String zone = source.type().equals(Types.TimestampType.withZone()) ? "Z" : "";
                lower = LOCAL.format(start) + zone;
                upper = LOCAL.format(start.plusDays(1)) + zone;
            } else if (!transform.equals("identity")) {
                throw new IllegalArgumentException("Cannot describe a " + transform + " partition: the engine tests use identity and day");
            }
            fields.add(new FieldPredicate(field.name(), source.name(), source.type().toString(), transform,
                    value == null ? null : value.toString(), lower, upper, null));
        }
        return new PartitionPredicate(spec.specId(), fields);
    }

    private PlannerPredicates() {
    }
}
