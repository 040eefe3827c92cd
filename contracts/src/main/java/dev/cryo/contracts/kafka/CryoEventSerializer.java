package dev.cryo.contracts.kafka;

import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.json.EventJson;
import org.apache.kafka.common.serialization.Serializer;

/** Kafka value serializer for every Cryo event: JSON by {@link EventJson}. */
public class CryoEventSerializer implements Serializer<CryoEvent> {
    @Override
    public byte[] serialize(String topic, CryoEvent event) {
        return event == null ? null : EventJson.write(event);
    }
}
