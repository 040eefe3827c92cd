package dev.cryo.contracts.kafka;

import dev.cryo.contracts.cloudevents.CloudEvents;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.cloudevents.EventType;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.json.EventJson;
import dev.cryo.contracts.json.MalformedEventException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * Envelopes to and from plain Kafka records, for code that uses kafka-clients directly
 * (tests, the CLI, audit replay). Services on SmallRye get the same headers from its
 * CloudEvents support.
 */
public final class KafkaEnvelopes {

    public static ProducerRecord<String, byte[]> toRecord(EventEnvelope<?> envelope) {
        return toRecord(envelope, envelope.type().topic());
    }

    public static ProducerRecord<String, byte[]> toRecord(EventEnvelope<?> envelope, String topic) {
        Headers headers = new RecordHeaders();
        put(headers, CloudEvents.HEADER_SPEC_VERSION, CloudEvents.SPEC_VERSION);
        put(headers, CloudEvents.HEADER_ID, envelope.id());
        put(headers, CloudEvents.HEADER_SOURCE, envelope.source());
        put(headers, CloudEvents.HEADER_TYPE, envelope.type().id());
        put(headers, CloudEvents.HEADER_TIME, envelope.time().toString());
        put(headers, CloudEvents.HEADER_SUBJECT, envelope.subject());
        put(headers, CloudEvents.HEADER_CONTENT_TYPE, CloudEvents.DATA_CONTENT_TYPE);
        put(headers, CloudEvents.HEADER_CORRELATION_ID, envelope.correlationId());
        if (envelope.actor() != null) {
            put(headers, CloudEvents.HEADER_ACTOR, envelope.actor());
        }
        return new ProducerRecord<>(topic, null, envelope.subject(), EventJson.write(envelope.data()), headers);
    }

    /**
     * Reads a record back into an envelope.
     *
     * @throws MalformedEventException naming the missing or invalid attribute
     */
    public static EventEnvelope<CryoEvent> fromRecord(ConsumerRecord<String, byte[]> record) {
        Headers headers = record.headers();
        String where = record.topic() + "-" + record.partition() + "@" + record.offset();
        EventType type;
        try {
            type = CryoEventDeserializer.typeOf(record.topic(), headers);
        } catch (RuntimeException e) {
            throw new MalformedEventException(e.getMessage() + " (" + where + ")", e);
        }
        if (record.value() == null) {
            throw new MalformedEventException("Cannot read " + where + ": the record has no value");
        }
        CryoEvent data = EventJson.read(record.value(), type.payloadType());
        String id = required(headers, CloudEvents.HEADER_ID, where);
        String correlationId = optional(headers, CloudEvents.HEADER_CORRELATION_ID);
        Instant time;
        try {
            time = Instant.parse(required(headers, CloudEvents.HEADER_TIME, where));
        } catch (DateTimeParseException e) {
            throw new MalformedEventException("Cannot read " + where + ": header " + CloudEvents.HEADER_TIME
                    + " is not an RFC 3339 time", e);
        }
        try {
            return new EventEnvelope<>(id, type, required(headers, CloudEvents.HEADER_SOURCE, where), time,
                    required(headers, CloudEvents.HEADER_SUBJECT, where),
                    correlationId == null ? id : correlationId,
                    optional(headers, CloudEvents.HEADER_ACTOR), data);
        } catch (IllegalArgumentException e) {
            throw new MalformedEventException("Cannot read " + where + ": " + e.getMessage(), e);
        }
    }

    /** A header's value as UTF-8 text, or null. */
    public static String optional(Headers headers, String name) {
        Header header = headers.lastHeader(name);
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private static String required(Headers headers, String name, String where) {
        String value = optional(headers, name);
        if (value == null || value.isBlank()) {
            throw new MalformedEventException("Cannot read " + where + ": header " + name + " is missing");
        }
        return value;
    }

    private static void put(Headers headers, String name, String value) {
        headers.add(name, value.getBytes(StandardCharsets.UTF_8));
    }

    private KafkaEnvelopes() {
    }
}
