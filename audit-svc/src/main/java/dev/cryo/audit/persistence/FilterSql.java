package dev.cryo.audit.persistence;

import dev.cryo.audit.domain.AuditFilter;

import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/** The WHERE clause of a filter over {@code audit_event e}, with its parameters in order. */
record FilterSql(String sql, List<Object> parameters) {

    FilterSql {
        parameters = List.copyOf(parameters);
    }

    static FilterSql of(AuditFilter filter) {
        List<String> conditions = new ArrayList<>();
        List<Object> parameters = new ArrayList<>();
        equal(conditions, parameters, "e.table_id", filter.table());
        if (filter.operation() != null) {
            conditions.add("e.operations @> ARRAY[?]::text[]");
            parameters.add(AuditRows.clean(filter.operation()));
        }
        equal(conditions, parameters, "e.engine", filter.engine());
        equal(conditions, parameters, "e.status", filter.status());
        equal(conditions, parameters, "e.actor", filter.actor());
        equal(conditions, parameters, "e.reason", filter.reason());
        equal(conditions, parameters, "e.correlation_id", filter.correlationId());
        equal(conditions, parameters, "e.event_type", filter.eventType());
        equal(conditions, parameters, "e.kind", filter.kind() == null ? null : filter.kind().id());
        if (filter.from() != null) {
            conditions.add("e.event_time >= ?");
            parameters.add(AuditRows.utc(filter.from()));
        }
        if (filter.to() != null) {
            conditions.add("e.event_time < ?");
            parameters.add(AuditRows.utc(filter.to()));
        }
        if (filter.recordedMonth() != null) {
            // Bounds on the partition key: PostgreSQL reads only that month's partition.
            conditions.add("e.recorded_at >= ? AND e.recorded_at < ?");
            parameters.add(filter.recordedMonth().atDay(1).atStartOfDay().atOffset(ZoneOffset.UTC));
            parameters.add(filter.recordedMonth().plusMonths(1).atDay(1).atStartOfDay().atOffset(ZoneOffset.UTC));
        }
        return new FilterSql(conditions.isEmpty() ? "TRUE" : String.join(" AND ", conditions), parameters);
    }

    private static void equal(List<String> conditions, List<Object> parameters, String column, String value) {
        if (value != null) {
            conditions.add(column + " = ?");
            parameters.add(AuditRows.clean(value));
        }
    }
}
