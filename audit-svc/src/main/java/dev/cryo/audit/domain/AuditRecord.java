package dev.cryo.audit.domain;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

import static java.util.Objects.requireNonNull;

/**
 * One audit row before it is stored: everything but its place in the chain (id, recording time,
 * hashes), which the store assigns.
 *
 * @param eventId the CloudEvents id, or {@link RawRecord#kafkaId()} for dead letters and unreadable records
 * @param kind what the row holds
 * @param eventTime the CloudEvents time, else the record timestamp
 * @param columns the searchable columns
 * @param position where the record sits in Kafka
 * @param headersJson the record headers as a JSON array of {@code {"name", "value"|"base64"}}
 * @param payloadJson the value when it is JSON (optional)
 * @param rawValue the value when it is not JSON (optional); the array is kept, not copied, and is
 *                 never modified: a value can be megabytes, and a copy per holder multiplied the
 *                 heap a backlog of large records takes
 */
public record AuditRecord(String eventId, RecordKind kind, Instant eventTime, EventColumns columns,
                          KafkaPosition position, String headersJson, String payloadJson, byte[] rawValue) {

    public AuditRecord {
        requireNonNull(eventId, "eventId is null");
        requireNonNull(kind, "kind is null");
        requireNonNull(eventTime, "eventTime is null");
        requireNonNull(columns, "columns is null");
        requireNonNull(position, "position is null");
        requireNonNull(headersJson, "headersJson is null");
        if (payloadJson != null && rawValue != null) {
            throw new IllegalArgumentException("Cannot describe audit row " + eventId + ": a value is either JSON or raw bytes");
        }
    }

    /**
     * The same record kept as raw bytes, for a payload that the database refuses as JSON (PostgreSQL
     * {@code jsonb} refuses the NUL character, for one). It becomes {@link RecordKind#MALFORMED} and is
     * stored under its Kafka position, so a later, readable event with the same id is not lost.
     */
    public AuditRecord asUnstorableJson(String reason) {
        requireNonNull(reason, "reason is null");
        byte[] bytes = payloadJson == null ? rawValue : payloadJson.getBytes(StandardCharsets.UTF_8);
        boolean deadLetter = kind == RecordKind.DEAD_LETTER;
        String detail = columns.detail() == null ? reason : columns.detail() + "; " + reason;
        EventColumns raw = new EventColumns(columns.eventType(), columns.source(), columns.table(), columns.operations(),
                columns.engine(), deadLetter ? columns.status() : "malformed", columns.durationMillis(), columns.actor(),
                columns.reason(), detail, columns.correlationId(), columns.jobId(), columns.planId());
        String kafkaId = "kafka:" + position.topic() + "/" + position.partition() + "/" + position.offset();
        return new AuditRecord(kafkaId, deadLetter ? RecordKind.DEAD_LETTER : RecordKind.MALFORMED, eventTime, raw,
                position, headersJson, null, bytes);
    }
}
