package dev.cryo.contracts.kafka;

import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * The consumers' value deserializer: a Cryo event as {@link CryoEventDeserializer} reads it, or,
 * when the record is not one, an {@link UnreadableRecord} that says why. It does not throw,
 * because SmallRye copies the bytes of a record that fails to deserialize into two headers of its
 * dead letter: a malformed record of 6 MB made a dead letter of 18.9 MB, which the producer
 * refused, and the consumer stopped on that record for good.
 */
public class CryoRecordDeserializer implements Deserializer<Object> {

    private final CryoEventDeserializer events = new CryoEventDeserializer();

    @Override
    public Object deserialize(String topic, byte[] data) {
        return deserialize(topic, null, data);
    }

    @Override
    public Object deserialize(String topic, Headers headers, byte[] data) {
        if (data == null) {
            return null;
        }
        try {
            return headers == null ? events.deserialize(topic, data) : events.deserialize(topic, headers, data);
        } catch (SerializationException e) {
            return new UnreadableRecord(e.getMessage(), data);
        }
    }
}
