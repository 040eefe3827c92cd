package dev.cryo.platform.messaging;

import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.json.MalformedEventException;
import dev.cryo.platform.error.CryoException;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Message;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * How every Cryo consumer handles a record, on a worker thread ({@code @Blocking}):
 * <ol>
 *   <li>read the envelope; a malformed record is dead-lettered with the reason;</li>
 *   <li>run the work; an EXTERNAL error (database or broker down) is retried with backoff, since
 *       the next attempt may succeed; any other error dead-letters the record;</li>
 *   <li>publish the work's result events and wait for the broker's acknowledgement;</li>
 *   <li>acknowledge the record, which lets its offset be committed.</li>
 * </ol>
 * A crash between steps redelivers the record: handlers must be idempotent and derive their
 * result ids from the input ({@link EventIds}), so a redelivery republishes the same events.
 */
@ApplicationScoped
public class EventConsumers {

    private final MeterRegistry registry;
    private final int maxAttempts;
    private final Duration firstBackoff;
    private final Duration maxBackoff;

    EventConsumers(MeterRegistry registry,
                   @ConfigProperty(name = "cryo.consumer.max-attempts", defaultValue = "8") int maxAttempts,
                   @ConfigProperty(name = "cryo.consumer.first-backoff", defaultValue = "PT0.5S") Duration firstBackoff,
                   @ConfigProperty(name = "cryo.consumer.max-backoff", defaultValue = "PT30S") Duration maxBackoff) {
        this.registry = registry;
        this.maxAttempts = maxAttempts;
        this.firstBackoff = firstBackoff;
        this.maxBackoff = maxBackoff;
    }

    /**
     * Handles one record as described above.
     *
     * @param consumer a name for metrics and logs, e.g. {@code scorer}
     */
    public CompletionStage<Void> consume(String consumer, Message<CryoEvent> message, EventHandler handler,
                                         EventPublisher publisher) {
        EventEnvelope<CryoEvent> envelope;
        try {
            envelope = CloudEventMessages.envelope(message);
        } catch (MalformedEventException e) {
            return deadLetter(consumer, message, e);
        }
        Duration backoff = firstBackoff;
        for (int attempt = 1; ; attempt++) {
            try {
                List<? extends EventEnvelope<?>> results = handler.handle(envelope);
                publisher.publish(results);
                registry.counter("cryo.consumer.events", "consumer", consumer, "outcome", "handled").increment();
                return message.ack();
            } catch (CryoException e) {
                if (!e.isRetryable() || attempt >= maxAttempts) {
                    return deadLetter(consumer, message, e);
                }
                Log.warnf("%s: attempt %d of %d for event %s failed, retrying in %s: %s", consumer, attempt,
                        maxAttempts, envelope.id(), backoff, e.getMessage());
                registry.counter("cryo.consumer.retries", "consumer", consumer).increment();
                sleep(backoff);
                backoff = backoff.multipliedBy(2).compareTo(maxBackoff) > 0 ? maxBackoff : backoff.multipliedBy(2);
            } catch (RuntimeException e) {
                return deadLetter(consumer, message, e);
            }
        }
    }

    private CompletionStage<Void> deadLetter(String consumer, Message<CryoEvent> message, Exception reason) {
        Log.errorf("%s: dead-lettering a record: %s", consumer, reason.getMessage());
        registry.counter("cryo.consumer.events", "consumer", consumer, "outcome", "dead-lettered").increment();
        return message.nack(reason);
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting to retry", e);
        }
    }
}
