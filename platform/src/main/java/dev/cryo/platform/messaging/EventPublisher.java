package dev.cryo.platform.messaging;

import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.platform.error.CommonErrorCode;
import dev.cryo.platform.error.CryoException;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.reactive.messaging.Emitter;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Publishes envelopes on the topic of their event type and waits for the broker's
 * acknowledgement. A service builds one from its emitters (one per outgoing channel; channel
 * names are topic names).
 *
 * <p>How long it waits is {@code cryo.messaging.publish-timeout} (default 5 minutes), the same
 * setting that bounds the producer's {@code delivery.timeout.ms} ({@link MessagingTimeouts}): a
 * broker that restarts within it delays a publish, it does not fail it.
 */
public class EventPublisher {

    /**
     * Beyond the publish timeout, so that the producer's own verdict (which names the cause) arrives
     * first; this wait only guards against a send that never completes.
     */
    private static final Duration VERDICT_MARGIN = Duration.ofSeconds(30);

    private final Map<String, Emitter<CryoEvent>> emittersByTopic;
    private final Duration publishTimeout;

    /** With the configured {@code cryo.messaging.publish-timeout}. */
    public EventPublisher(Map<String, Emitter<CryoEvent>> emittersByTopic) {
        this(emittersByTopic, configuredPublishTimeout());
    }

    public EventPublisher(Map<String, Emitter<CryoEvent>> emittersByTopic, Duration publishTimeout) {
        this.emittersByTopic = Map.copyOf(emittersByTopic);
        this.publishTimeout = Objects.requireNonNull(publishTimeout, "publishTimeout");
    }

    static Duration configuredPublishTimeout() {
        return ConfigProvider.getConfig().getOptionalValue(MessagingTimeouts.PUBLISH_TIMEOUT, Duration.class)
                .orElse(MessagingTimeouts.DEFAULT_PUBLISH_TIMEOUT);
    }

    /** How long a publish waits for the broker's acknowledgement. */
    public Duration publishTimeout() {
        return publishTimeout;
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
            CompletableFuture.allOf(sent).get(publishTimeout.plus(VERDICT_MARGIN).toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CryoException(CommonErrorCode.DEPENDENCY_UNAVAILABLE, "Cannot publish events: interrupted", e);
        } catch (ExecutionException | TimeoutException e) {
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            throw new CryoException(CommonErrorCode.DEPENDENCY_UNAVAILABLE, "Cannot publish " + envelopes.size()
                    + " event(s) to Kafka within " + publishTimeout + " (" + MessagingTimeouts.PUBLISH_TIMEOUT + "): "
                    + cause.getMessage(), cause);
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
