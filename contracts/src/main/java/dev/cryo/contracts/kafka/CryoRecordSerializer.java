package dev.cryo.contracts.kafka;

import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.json.EventJson;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serializer;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The dead-letter value serializer: a Cryo event as JSON, an {@link UnreadableRecord} as the
 * bytes it came with, raw bytes as they are. A value longer than {@link #MAX_VALUE_BYTES} is cut
 * there and the dead letter gets the header {@value #TRUNCATED_HEADER} with the original length,
 * so that the dead letter always fits the topic and the consumer goes on. (The name mirrors
 * {@link CryoRecordDeserializer}'s, as SmallRye pairs them.)
 */
public class CryoRecordSerializer implements Serializer<Object> {

    /** An eighth of a record's limit: room left for the dead letter's headers (the reason, the originals). */
    public static final int MAX_VALUE_BYTES = 1024 * 1024;
    public static final String TRUNCATED_HEADER = "cryo-dead-letter-truncated-from";

    @Override
    public byte[] serialize(String topic, Object data) {
        return bytes(topic, data);
    }

    @Override
    public byte[] serialize(String topic, Headers headers, Object data) {
        byte[] value = bytes(topic, data);
        if (value == null || value.length <= MAX_VALUE_BYTES) {
            return value;
        }
        if (headers != null) {
            headers.remove(TRUNCATED_HEADER);
            headers.add(TRUNCATED_HEADER, Integer.toString(value.length).getBytes(StandardCharsets.UTF_8));
        }
        return Arrays.copyOf(value, MAX_VALUE_BYTES);
    }

    private static byte[] bytes(String topic, Object data) {
        if (data == null) {
            return null;
        }
        if (data instanceof CryoEvent event) {
            return EventJson.write(event);
        }
        if (data instanceof UnreadableRecord unreadable) {
            return unreadable.value();
        }
        if (data instanceof byte[] raw) {
            return raw;
        }
        throw new SerializationException("Cannot write a dead letter to " + topic + ": a value of class "
                + data.getClass().getName() + " is neither a Cryo event, an unreadable record nor bytes");
    }
}
