package dev.cryo.contracts.cloudevents;

import dev.cryo.contracts.event.CryoEvent;

import java.time.Instant;
import java.util.UUID;

import static java.util.Objects.requireNonNull;

/**
 * A Cryo event with its CloudEvents attributes.
 *
 * @param id unique id of this event (consumers deduplicate on it)
 * @param type the event type
 * @param source the component that produced it, e.g. {@code /cryo/scanner}
 * @param time when it was produced
 * @param subject the table id
 * @param correlationId the id of the TableChanged that started the chain
 * @param actor who asked for the work (optional)
 * @param data the payload
 */
public record EventEnvelope<T extends CryoEvent>(
        String id,
        EventType type,
        String source,
        Instant time,
        String subject,
        String correlationId,
        String actor,
        T data) {

    public EventEnvelope {
        requireNonNull(id, "id is null");
        requireNonNull(type, "type is null");
        requireNonNull(source, "source is null");
        requireNonNull(time, "time is null");
        requireNonNull(subject, "subject is null");
        requireNonNull(correlationId, "correlationId is null");
        requireNonNull(data, "data is null");
        if (type.payloadType() != data.getClass()) {
            throw new IllegalArgumentException("type " + type.id() + " does not carry " + data.getClass().getSimpleName());
        }
        if (!subject.equals(data.table().toString())) {
            throw new IllegalArgumentException("subject " + subject + " is not the event's table " + data.table());
        }
    }

    /** A new event that starts a chain: its own id is the correlation id. */
    public static <T extends CryoEvent> EventEnvelope<T> startChain(T data, String source, Instant time) {
        String id = UUID.randomUUID().toString();
        return new EventEnvelope<>(id, EventType.of(data), source, time, data.table().toString(), id, null, data);
    }

    /** A new event caused by an earlier one of the chain {@code correlationId}. */
    public static <T extends CryoEvent> EventEnvelope<T> follow(T data, String source, Instant time, String correlationId) {
        return new EventEnvelope<>(UUID.randomUUID().toString(), EventType.of(data), source, time,
                data.table().toString(), correlationId, null, data);
    }

    public EventEnvelope<T> withActor(String newActor) {
        return new EventEnvelope<>(id, type, source, time, subject, correlationId, newActor, data);
    }
}
