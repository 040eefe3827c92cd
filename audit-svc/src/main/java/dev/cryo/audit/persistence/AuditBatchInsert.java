package dev.cryo.audit.persistence;

import dev.cryo.audit.domain.AuditRecord;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;

import static dev.cryo.audit.persistence.AuditRows.clean;
import static dev.cryo.audit.persistence.AuditRows.utc;

/**
 * One statement per batch of audit rows: the rows travel as one array per column (far fewer bind
 * parameters than a multi-row VALUES) and are inserted in their order, which is the chain's. The
 * columns are listed once, in {@link #COLUMNS}: the insert's column list, the select over
 * {@code unnest}, the array casts and the values bound all follow from it. Plain JDBC: {@code unnest}
 * over typed arrays and the trigger that hashes each row are PostgreSQL features an ORM does not map.
 */
final class AuditBatchInsert {

    /**
     * A column of {@code audit_event} that a batch fills.
     *
     * @param name the column
     * @param arrayType the PostgreSQL element type the values travel as
     * @param select how the select over {@code unnest} turns the travelled value into the column's type
     * @param value the row's value
     */
    private record Column(String name, String arrayType, String select, Function<Numbered, Object> value) {

        Column(String name, String arrayType, Function<Numbered, Object> value) {
            this(name, arrayType, "u." + name, value);
        }
    }

    /** A record with the chain id it is stored under. */
    private record Numbered(long id, AuditRecord record) {
    }

    private static final List<Column> COLUMNS = List.of(
            new Column("id", "int8", Numbered::id),
            new Column("event_id", "text", n -> clean(n.record().eventId())),
            new Column("kind", "text", n -> n.record().kind().id()),
            new Column("event_time", "timestamptz", n -> utc(n.record().eventTime())),
            new Column("event_type", "text", n -> clean(n.record().columns().eventType())),
            new Column("source", "text", n -> clean(n.record().columns().source())),
            new Column("table_id", "text", n -> clean(n.record().columns().table())),
            // Operation ids never hold a comma; an empty list is stored as NULL.
            new Column("operations", "text", "string_to_array(u.operations, ',')", n -> n.record().columns().operations()
                    .isEmpty() ? null : clean(String.join(",", n.record().columns().operations()))),
            new Column("engine", "text", n -> clean(n.record().columns().engine())),
            new Column("status", "text", n -> clean(n.record().columns().status())),
            new Column("duration_ms", "int8", n -> n.record().columns().durationMillis()),
            new Column("actor", "text", n -> clean(n.record().columns().actor())),
            new Column("reason", "text", n -> clean(n.record().columns().reason())),
            new Column("detail", "text", n -> clean(n.record().columns().detail())),
            new Column("correlation_id", "text", n -> clean(n.record().columns().correlationId())),
            new Column("job_id", "text", n -> clean(n.record().columns().jobId())),
            new Column("plan_id", "text", n -> clean(n.record().columns().planId())),
            new Column("kafka_topic", "text", n -> clean(n.record().position().topic())),
            new Column("kafka_partition", "int4", n -> n.record().position().partition()),
            new Column("kafka_offset", "int8", n -> n.record().position().offset()),
            new Column("kafka_key", "text", n -> clean(n.record().position().key())),
            new Column("kafka_timestamp", "timestamptz",
                    n -> n.record().position().timestamp() == null ? null : utc(n.record().position().timestamp())),
            new Column("headers", "text", "u.headers::jsonb", n -> n.record().headersJson()),
            new Column("payload", "text", "u.payload::jsonb", n -> n.record().payloadJson()),
            new Column("raw_value", "bytea", n -> n.record().rawValue()));

    private static final String INSERT_SQL = "INSERT INTO %s.audit_event (recorded_at, "
            + COLUMNS.stream().map(Column::name).collect(Collectors.joining(", ")) + ") SELECT ?, "
            + COLUMNS.stream().map(Column::select).collect(Collectors.joining(", ")) + " FROM unnest("
            + COLUMNS.stream().map(column -> "?::" + column.arrayType() + "[]").collect(Collectors.joining(", "))
            + ") WITH ORDINALITY AS u(" + COLUMNS.stream().map(Column::name).collect(Collectors.joining(", "))
            + ", position) ORDER BY u.position";

    private static final String INSERT_IDS_SQL = "INSERT INTO %s.audit_event_id (event_id, audit_id, recorded_at) "
            + "SELECT e, i, ? FROM unnest(?::text[], ?::int8[]) AS u(e, i)";

    /**
     * Inserts the records under ids {@code lastId + 1} on, all recorded at {@code recordedAt}, with
     * their event ids; the caller holds the chain lock.
     *
     * @return the id of the last row inserted
     */
    static long insert(Connection connection, String schema, Instant recordedAt, long lastId, List<AuditRecord> records)
            throws SQLException {
        List<Numbered> rows = new ArrayList<>(records.size());
        long id = lastId;
        for (AuditRecord record : records) {
            rows.add(new Numbered(++id, record));
        }
        try (PreparedStatement insertIds = connection.prepareStatement(INSERT_IDS_SQL.formatted(schema));
             PreparedStatement insert = connection.prepareStatement(INSERT_SQL.formatted(schema))) {
            insertIds.setObject(1, utc(recordedAt));
            insertIds.setArray(2, connection.createArrayOf("text", values(rows, COLUMNS.get(1))));
            insertIds.setArray(3, connection.createArrayOf("int8", values(rows, COLUMNS.get(0))));
            insertIds.executeUpdate();
            insert.setObject(1, utc(recordedAt));
            for (int i = 0; i < COLUMNS.size(); i++) {
                Column column = COLUMNS.get(i);
                insert.setArray(i + 2, connection.createArrayOf(column.arrayType(), values(rows, column)));
            }
            insert.executeUpdate();
        }
        return id;
    }

    /** One column's values in row order; {@code bytea} values travel as a {@code byte[][]}, which the driver binds as such. */
    private static Object[] values(List<Numbered> rows, Column column) {
        Object[] values = "bytea".equals(column.arrayType()) ? new byte[rows.size()][] : new Object[rows.size()];
        for (int i = 0; i < rows.size(); i++) {
            values[i] = column.value().apply(rows.get(i));
        }
        return values;
    }

    private AuditBatchInsert() {
    }
}
