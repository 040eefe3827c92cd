package dev.cryo.platform.messaging;

import dev.cryo.contracts.cloudevents.CloudEvents;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.cloudevents.EventType;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.json.MalformedEventException;
import dev.cryo.contracts.kafka.UnreadableRecord;
import io.smallrye.reactive.messaging.ce.IncomingCloudEventMetadata;
import io.smallrye.reactive.messaging.ce.OutgoingCloudEventMetadata;
import io.smallrye.reactive.messaging.ce.OutgoingCloudEventMetadataBuilder;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;

import java.net.URI;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Envelopes to and from SmallRye messages: CloudEvents attributes as binary-mode headers, the
 * table id as the Kafka key, the correlation id (and actor) as extension attributes.
 */
public final class CloudEventMessages {

    /** An outgoing message for an envelope: send it with an {@code Emitter<CryoEvent>}. */
    public static Message<CryoEvent> toMessage(EventEnvelope<?> envelope) {
        OutgoingCloudEventMetadataBuilder<Object> cloudEvent = OutgoingCloudEventMetadata.builder()
                .withId(envelope.id())
                .withType(envelope.type().id())
                .withSource(URI.create(envelope.source()))
                .withSubject(envelope.subject())
                .withTimestamp(envelope.time().atZone(ZoneOffset.UTC))
                .withDataContentType(CloudEvents.DATA_CONTENT_TYPE)
                .withExtension(CloudEvents.EXTENSION_CORRELATION_ID, envelope.correlationId());
        if (envelope.actor() != null) {
            cloudEvent.withExtension(CloudEvents.EXTENSION_ACTOR, envelope.actor());
        }
        OutgoingKafkaRecordMetadata<String> kafka = OutgoingKafkaRecordMetadata.<String>builder()
                .withKey(envelope.subject())
                .build();
        return Message.<CryoEvent>of(envelope.data(), Metadata.of(cloudEvent.build(), kafka));
    }

    /**
     * Sends an envelope and completes when the broker has acknowledged it (acks=all), or fails
     * with the producer's error. Consumers acknowledge their input only after this completes,
     * so a crash in between redelivers the input instead of losing the output.
     */
    public static CompletionStage<Void> send(Emitter<CryoEvent> emitter, EventEnvelope<?> envelope) {
        CompletableFuture<Void> acknowledged = new CompletableFuture<>();
        Message<CryoEvent> message = toMessage(envelope)
                .withAck(() -> {
                    acknowledged.complete(null);
                    return CompletableFuture.completedFuture(null);
                })
                .withNack(error -> {
                    acknowledged.completeExceptionally(error);
                    return CompletableFuture.completedFuture(null);
                });
        emitter.send(message);
        return acknowledged;
    }

    /**
     * The envelope of an incoming message.
     *
     * @throws MalformedEventException when the record carries no CloudEvents attributes or they do not fit the payload
     */
    @SuppressWarnings("unchecked")
    public static <T extends CryoEvent> EventEnvelope<T> envelope(Message<? extends CryoEvent> message) {
        // The consumers' deserializer hands over an UnreadableRecord instead of an event that it could not read.
        Object value = ((Message<?>) message).getPayload();
        if (value == null) {
            throw new MalformedEventException("Cannot read event: the record has no value");
        }
        if (value instanceof UnreadableRecord unreadable) {
            throw new MalformedEventException(unreadable.reason());
        }
        if (!(value instanceof CryoEvent payload)) {
            throw new MalformedEventException("Cannot read event: its value is a " + value.getClass().getName()
                    + ", not a Cryo event");
        }
        IncomingCloudEventMetadata<?> cloudEvent = message.getMetadata(IncomingCloudEventMetadata.class)
                .orElseThrow(() -> new MalformedEventException("Cannot read " + payload.getClass().getSimpleName()
                        + ": the record carries no CloudEvents headers (ce_id, ce_type, ce_source, ...)"));
        String id = cloudEvent.getId();
        String correlationId = cloudEvent.getExtension(CloudEvents.EXTENSION_CORRELATION_ID)
                .map(Object::toString).orElse(id);
        String actor = cloudEvent.getExtension(CloudEvents.EXTENSION_ACTOR).map(Object::toString).orElse(null);
        Instant time = cloudEvent.getTimeStamp().map(zoned -> zoned.toInstant()).orElseGet(Instant::now);
        if (!CloudEvents.SPEC_VERSION.equals(cloudEvent.getSpecVersion())) {
            throw new MalformedEventException("Cannot read event " + id + ": CloudEvents spec version "
                    + cloudEvent.getSpecVersion() + " is not " + CloudEvents.SPEC_VERSION + ", the one Cryo speaks");
        }
        EventType type = EventType.fromId(cloudEvent.getType()).orElseThrow(() ->
                new MalformedEventException("Cannot read event " + id + ": unknown type " + cloudEvent.getType()));
        // A producer that names a data schema must name this type's (v1) schema: a payload of a newer
        // schema under the old type would be read with fields silently missing.
        cloudEvent.getDataSchema().map(URI::toString).ifPresent(schema -> {
            if (!schema.endsWith("/" + type.schemaResource()) && !schema.equals(type.schemaResource())) {
                throw new MalformedEventException("Cannot read event " + id + ": its dataschema " + schema
                        + " is not the schema of " + type.id() + " (" + type.schemaResource() + "); a newer producer"
                        + " publishes a new version on its own topic");
            }
        });
        try {
            return (EventEnvelope<T>) new EventEnvelope<>(id, type, cloudEvent.getSource().toString(), time,
                    cloudEvent.getSubject().orElse(payload.table().toString()), correlationId, actor, payload);
        } catch (IllegalArgumentException e) {
            throw new MalformedEventException("Cannot read event " + id + ": " + e.getMessage(), e);
        }
    }

    private CloudEventMessages() {
    }
}
