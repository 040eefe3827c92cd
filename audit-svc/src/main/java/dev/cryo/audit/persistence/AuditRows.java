package dev.cryo.audit.persistence;

import dev.cryo.audit.domain.AuditRecord;
import dev.cryo.audit.domain.AuditRow;
import dev.cryo.audit.domain.EventColumns;
import dev.cryo.audit.domain.KafkaPosition;
import dev.cryo.audit.domain.RecordKind;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;

/** How an audit row reads back from {@code audit_event}, and how values are made fit to store. */
final class AuditRows {

    /** Every column of {@code audit_event}, in the table's order: what a read selects. */
    static final String COLUMNS = "id, recorded_at, event_id, kind, event_time, event_type, source, table_id, "
            + "operations, engine, status, duration_ms, actor, reason, detail, correlation_id, job_id, plan_id, "
            + "kafka_topic, kafka_partition, kafka_offset, kafka_key, kafka_timestamp, headers, payload, raw_value, "
            + "prev_hash, row_hash";

    static AuditRow row(ResultSet result) throws SQLException {
        Array operations = result.getArray("operations");
        List<String> operationList = operations == null ? List.of() : Arrays.asList((String[]) operations.getArray());
        long duration = result.getLong("duration_ms");
        Long durationMillis = result.wasNull() ? null : duration;
        EventColumns columns = new EventColumns(result.getString("event_type"), result.getString("source"),
                result.getString("table_id"), operationList, result.getString("engine"), result.getString("status"),
                durationMillis, result.getString("actor"), result.getString("reason"), result.getString("detail"),
                result.getString("correlation_id"), result.getString("job_id"), result.getString("plan_id"));
        OffsetDateTime kafkaTimestamp = result.getObject("kafka_timestamp", OffsetDateTime.class);
        KafkaPosition position = new KafkaPosition(result.getString("kafka_topic"), result.getInt("kafka_partition"),
                result.getLong("kafka_offset"), result.getString("kafka_key"),
                kafkaTimestamp == null ? null : kafkaTimestamp.toInstant());
        AuditRecord record = new AuditRecord(result.getString("event_id"), RecordKind.fromId(result.getString("kind")),
                result.getObject("event_time", OffsetDateTime.class).toInstant(), columns, position,
                result.getString("headers"), result.getString("payload"), result.getBytes("raw_value"));
        return new AuditRow(result.getLong("id"), result.getObject("recorded_at", OffsetDateTime.class).toInstant(),
                record, result.getString("prev_hash"), result.getString("row_hash"));
    }

    static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }

    /** PostgreSQL text cannot hold NUL; a header or key that carries one is stored with U+FFFD instead. */
    static String clean(String text) {
        return text == null || text.indexOf('\u0000') < 0 ? text : text.replace('\u0000', '\uFFFD');
    }

    private AuditRows() {
    }
}
