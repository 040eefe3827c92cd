package dev.cryo.audit.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRawValue;
import dev.cryo.audit.domain.AuditRecord;
import dev.cryo.audit.domain.AuditRow;
import dev.cryo.audit.domain.EventColumns;
import dev.cryo.audit.domain.KafkaPosition;
import dev.cryo.audit.domain.TimelineStage;

import java.time.Instant;
import java.util.Base64;
import java.util.List;

/**
 * One audit row as the API shows it.
 *
 * @param id its place in the hash chain
 * @param recordedAt when the audit stored it
 * @param eventId the CloudEvents id (kafka:topic/partition/offset for dead letters and unreadable records)
 * @param kind event, malformed or dead-letter
 * @param stage its step in a table change's timeline
 * @param eventTime the CloudEvents time
 * @param eventType the CloudEvents type
 * @param source the CloudEvents source
 * @param table the table id
 * @param operations the operations it is about
 * @param engine the engine
 * @param status where the work stands
 * @param durationMillis how long the work took
 * @param actor who asked
 * @param reason the reason code
 * @param detail one line for people
 * @param correlationId the TableChanged that started the chain
 * @param jobId the job
 * @param planId the plan
 * @param kafka where the record sits in Kafka
 * @param headers the record headers as stored
 * @param payload the payload as published (JSON)
 * @param rawValueBase64 the value when it was not JSON
 * @param prevHash the hash of the row before
 * @param rowHash this row's hash
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AuditEventView(long id, Instant recordedAt, String eventId, String kind, String stage, Instant eventTime,
                             String eventType, String source, String table, List<String> operations, String engine,
                             String status, Long durationMillis, String actor, String reason, String detail,
                             String correlationId, String jobId, String planId, Kafka kafka,
                             @JsonRawValue String headers, @JsonRawValue String payload, String rawValueBase64,
                             String prevHash, String rowHash) {

    /** Where a record sits in Kafka. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Kafka(String topic, int partition, long offset, String key, Instant timestamp) {
    }

    static AuditEventView of(AuditRow row) {
        AuditRecord record = row.record();
        EventColumns columns = record.columns();
        KafkaPosition position = record.position();
        return new AuditEventView(row.id(), row.recordedAt(), record.eventId(), record.kind().id(),
                TimelineStage.of(record.kind(), columns.eventType()).id(), record.eventTime(), columns.eventType(),
                columns.source(), columns.table(), columns.operations(), columns.engine(), columns.status(),
                columns.durationMillis(), columns.actor(), columns.reason(), columns.detail(), columns.correlationId(),
                columns.jobId(), columns.planId(),
                new Kafka(position.topic(), position.partition(), position.offset(), position.key(), position.timestamp()),
                record.headersJson(), record.payloadJson(),
                record.rawValue() == null ? null : Base64.getEncoder().encodeToString(record.rawValue()),
                row.previousHash(), row.rowHash());
    }
}
