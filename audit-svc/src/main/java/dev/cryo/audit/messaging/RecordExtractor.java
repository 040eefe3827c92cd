package dev.cryo.audit.messaging;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.cryo.audit.domain.AuditRecord;
import dev.cryo.audit.domain.AuditTopics;
import dev.cryo.audit.domain.EventColumns;
import dev.cryo.audit.domain.EventSummaries;
import dev.cryo.audit.domain.KafkaPosition;
import dev.cryo.audit.domain.RawRecord;
import dev.cryo.audit.domain.RecordKind;
import dev.cryo.audit.domain.StoredHeaders;
import dev.cryo.contracts.cloudevents.CloudEvents;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.cloudevents.EventType;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.json.MalformedEventException;
import dev.cryo.contracts.kafka.KafkaEnvelopes;
import dev.cryo.platform.deadletter.DeadLetters;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;

/**
 * Turns a Kafka record into an audit row. A record that reads as a Cryo event (its CloudEvents
 * headers and its payload fit the contract) becomes an {@link RecordKind#EVENT} with every
 * searchable column filled; anything else on a Cryo topic is kept raw as
 * {@link RecordKind#MALFORMED} with the reason; records of dead-letter topics are kept raw as
 * {@link RecordKind#DEAD_LETTER} with the dead-letter reason. Nothing is dropped.
 */
public final class RecordExtractor {

    /** SmallRye's dead-letter headers. */
    static final String DEAD_LETTER_REASON = "dead-letter-reason";
    static final String DEAD_LETTER_EXCEPTION = "dead-letter-exception-class-name";
    static final String DEAD_LETTER_TOPIC = "dead-letter-topic";
    static final String DEAD_LETTER_PARTITION = "dead-letter-partition";
    static final String DEAD_LETTER_OFFSET = "dead-letter-offset";
    /** The CloudEvents {@code dataschema} attribute in binary mode. */
    static final String DATA_SCHEMA = "ce_dataschema";

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    /** A record of any topic the audit reads: dead-letter topics hold dead letters, the others events. */
    public static AuditRecord extract(RawRecord raw) {
        return AuditTopics.isDeadLetter(raw.topic()) ? deadLetter(raw) : event(raw);
    }

    /** A record of a Cryo event topic. */
    public static AuditRecord event(RawRecord raw) {
        EventEnvelope<CryoEvent> envelope;
        try {
            checkVersion(raw);
            envelope = KafkaEnvelopes.fromRecord(toConsumerRecord(raw));
        } catch (RuntimeException e) {
            return unreadable(raw, RecordKind.MALFORMED, "malformed", null, describe(e));
        }
        EventColumns columns = EventSummaries.of(envelope);
        // The contract accepted the payload, so it is JSON; it is stored as published, with fields this
        // version of Cryo does not know yet.
        return new AuditRecord(envelope.id(), RecordKind.EVENT, envelope.time(), columns, position(raw),
                StoredHeaders.toJson(raw), new String(raw.value(), StandardCharsets.UTF_8), null);
    }

    /**
     * Refuses, as every service's consumer does (platform CloudEventMessages), a record of another
     * CloudEvents spec version or of another data schema than its type's v1. Read as a v1 event it would
     * be stored as one, and since it may carry the id of a real event, that event would then be skipped
     * as already stored.
     */
    private static void checkVersion(RawRecord raw) {
        String id = raw.headerText(CloudEvents.HEADER_ID);
        String specVersion = raw.headerText(CloudEvents.HEADER_SPEC_VERSION);
        if (specVersion != null && !CloudEvents.SPEC_VERSION.equals(specVersion)) {
            throw new MalformedEventException("Cannot read event " + id + ": CloudEvents spec version " + specVersion
                    + " is not " + CloudEvents.SPEC_VERSION + ", the one Cryo speaks");
        }
        String schema = raw.headerText(DATA_SCHEMA);
        EventType type = EventType.fromId(raw.headerText(CloudEvents.HEADER_TYPE)).orElse(null);
        if (schema != null && type != null && !schema.endsWith("/" + type.schemaResource())
                && !schema.equals(type.schemaResource())) {
            throw new MalformedEventException("Cannot read event " + id + ": its dataschema " + schema
                    + " is not the schema of " + type.id() + " (" + type.schemaResource() + "); a newer producer"
                    + " publishes a new version on its own topic");
        }
    }

    /** A record of a dead-letter topic: what a consumer could not handle, and why. */
    public static AuditRecord deadLetter(RawRecord raw) {
        String exception = raw.headerText(DEAD_LETTER_EXCEPTION);
        String reason = exception == null ? null : exception.substring(exception.lastIndexOf('.') + 1);
        String origin = raw.headerText(DEAD_LETTER_TOPIC) == null ? ""
                : " (from " + raw.headerText(DEAD_LETTER_TOPIC) + "-" + raw.headerText(DEAD_LETTER_PARTITION) + "@"
                + raw.headerText(DEAD_LETTER_OFFSET) + ")";
        String why = Optional.ofNullable(raw.headerText(DEAD_LETTER_REASON)).orElse("no dead-letter-reason header");
        if (raw.headerText(DeadLetters.REDRIVE_OF) != null) {
            // A service's marker of an operator's re-drive: who (ce_actor), which dead letter, and where it went.
            return unreadable(raw, RecordKind.DEAD_LETTER, "re-driven", null, why);
        }
        return unreadable(raw, RecordKind.DEAD_LETTER, "dead-lettered", reason, why + origin);
    }

    private static AuditRecord unreadable(RawRecord raw, RecordKind kind, String status, String reason, String detail) {
        String id = raw.headerText(CloudEvents.HEADER_ID);
        String subject = raw.headerText(CloudEvents.HEADER_SUBJECT);
        String correlationId = Optional.ofNullable(raw.headerText(CloudEvents.HEADER_CORRELATION_ID)).orElse(id);
        EventColumns columns = new EventColumns(raw.headerText(CloudEvents.HEADER_TYPE),
                raw.headerText(CloudEvents.HEADER_SOURCE), subject != null ? subject : raw.key(), List.of(), null, status,
                null, raw.headerText(CloudEvents.HEADER_ACTOR), reason, detail, correlationId, null, null);
        byte[] value = raw.value();
        boolean json = value != null && isJson(value);
        return new AuditRecord(raw.kafkaId(), kind, timeOf(raw), columns, position(raw), StoredHeaders.toJson(raw),
                json ? new String(value, StandardCharsets.UTF_8) : null, json ? null : value);
    }

    private static ConsumerRecord<String, byte[]> toConsumerRecord(RawRecord raw) {
        RecordHeaders headers = new RecordHeaders();
        raw.headers().forEach(header -> headers.add(header.name(), header.value()));
        long timestamp = raw.timestamp() == null ? ConsumerRecord.NO_TIMESTAMP : raw.timestamp().toEpochMilli();
        byte[] value = raw.value();
        return new ConsumerRecord<>(raw.topic(), raw.partition(), raw.offset(), timestamp, TimestampType.CREATE_TIME,
                -1, value == null ? -1 : value.length, raw.key(), value, headers, Optional.empty());
    }

    private static KafkaPosition position(RawRecord raw) {
        return new KafkaPosition(raw.topic(), raw.partition(), raw.offset(), raw.key(), raw.timestamp());
    }

    /** The CloudEvents time when it parses, else the record timestamp: both are fixed by the record, so a rebuild agrees. */
    private static Instant timeOf(RawRecord raw) {
        String time = raw.headerText(CloudEvents.HEADER_TIME);
        if (time != null) {
            try {
                return OffsetDateTime.parse(time).toInstant();
            } catch (DateTimeParseException e) {
                // an unparsable time is part of what makes the record malformed; the record timestamp stands in
            }
        }
        return raw.timestamp() == null ? Instant.EPOCH : raw.timestamp();
    }

    private static boolean isJson(byte[] value) {
        try {
            JsonNode node = JSON.readTree(value);
            return node != null && !node.isMissingNode();
        } catch (IOException e) {
            return false;
        }
    }

    private static String describe(RuntimeException e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    private RecordExtractor() {
    }
}
