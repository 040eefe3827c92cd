package dev.cryo.contracts.kafka;

import dev.cryo.contracts.cloudevents.CloudEvents;
import dev.cryo.contracts.cloudevents.EventType;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.json.EventJson;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;

import java.nio.charset.StandardCharsets;

/**
 * Kafka value deserializer for every Cryo event: the CloudEvents {@code ce_type} header
 * chooses the payload record. Records without a known type, or whose JSON does not fit it,
 * fail with a {@link SerializationException} whose message says what is wrong; consumers
 * send them to their dead-letter topic.
 */
public class CryoEventDeserializer implements Deserializer<CryoEvent> {

    @Override
    public CryoEvent deserialize(String topic, byte[] data) {
        throw new SerializationException("Cannot read record on " + topic
                + ": Cryo events need their CloudEvents headers (binary mode); this record has none");
    }

    @Override
    public CryoEvent deserialize(String topic, Headers headers, byte[] data) {
        if (data == null) {
            return null;
        }
        EventType type = typeOf(topic, headers);
        try {
            return EventJson.read(data, type.payloadType());
        } catch (RuntimeException e) {
            throw new SerializationException("Cannot read record on " + topic + ": " + e.getMessage(), e);
        }
    }

    static EventType typeOf(String topic, Headers headers) {
        Header header = headers == null ? null : headers.lastHeader(CloudEvents.HEADER_TYPE);
        if (header == null || header.value() == null) {
            throw new SerializationException("Cannot read record on " + topic + ": header "
                    + CloudEvents.HEADER_TYPE + " is missing (Cryo events are CloudEvents in binary mode)");
        }
        String id = new String(header.value(), StandardCharsets.UTF_8);
        return EventType.fromId(id).orElseThrow(() -> new SerializationException("Cannot read record on " + topic
                + ": unknown event type '" + id + "' (a newer producer? this consumer knows "
                + java.util.Arrays.stream(EventType.values()).map(EventType::id).toList() + ")"));
    }
}
