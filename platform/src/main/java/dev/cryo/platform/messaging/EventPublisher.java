package dev.cryo.platform.messaging;

import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.platform.error.CommonErrorCode;
import dev.cryo.platform.error.CryoException;
import org.eclipse.microprofile.reactive.messaging.Emitter;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Publishes envelopes on the topic of their event type and waits for the broker's
 * acknowledgement. A service builds one from its emitters (one per outgoing channel; channel
 * names are topic names).
 */
public class EventPublisher {

    private static final Duration ACK_TIMEOUT = Duration.ofSeconds(60);

    private final Map<String, Emitter<CryoEvent>> emittersByTopic;

    public EventPublisher(Map<String, Emitter<CryoEvent>> emittersByTopic) {
        this.emittersByTopic = Map.copyOf(emittersByTopic);
    }

    /** Sends every envelope and blocks until all are acknowledged. Call from a worker thread. */
    public void publish(List<? extends EventEnvelope<?>> envelopes) {
        if (envelopes.isEmpty()) {
            return;
        }
        CompletableFuture<?>[] sent = envelopes.stream()
                .map(envelope -> CloudEventMessages.send(emitterFor(envelope), envelope).toCompletableFuture())
                .toArray(CompletableFuture[]::new);
        try {
            CompletableFuture.allOf(sent).get(ACK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CryoException(CommonErrorCode.DEPENDENCY_UNAVAILABLE, "Cannot publish events: interrupted", e);
        } catch (ExecutionException | TimeoutException e) {
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            throw new CryoException(CommonErrorCode.DEPENDENCY_UNAVAILABLE,
                    "Cannot publish " + envelopes.size() + " event(s) to Kafka: " + cause.getMessage(), cause);
        }
    }

    public void publish(EventEnvelope<?> envelope) {
        publish(List.of(envelope));
    }

    private Emitter<CryoEvent> emitterFor(EventEnvelope<?> envelope) {
        Emitter<CryoEvent> emitter = emittersByTopic.get(envelope.type().topic());
        if (emitter == null) {
            throw new CryoException(CommonErrorCode.INTERNAL_ERROR, "Cannot publish " + envelope.type().id()
                    + ": this service has no outgoing channel " + envelope.type().topic());
        }
        return emitter;
    }
}
