package dev.cryo.scanner.messaging;

import dev.cryo.contracts.Topics;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.TableChanged;
import dev.cryo.platform.config.ServiceInstance;
import dev.cryo.platform.messaging.EventPublisher;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;

import java.time.Clock;
import java.util.List;
import java.util.Map;

/**
 * Publishes the changes the scanner notices itself (watcher, webhook, sweeps, manual scans) on
 * {@code cryo.table-changed.v1}, where the scanner's own consumer picks them up like any commit
 * report. Going through Kafka keeps one path for every source, and every change in the audit log.
 *
 * <p>The outgoing channel has its own name ({@code table-changed-out}, mapped to the topic in
 * application.properties): a channel that is both incoming and outgoing in one application would
 * be wired in memory and never reach the broker.
 */
@ApplicationScoped
public class ChangePublisher {

    /** The outgoing channel of TableChanged events; its topic is contracts' Topics.TABLE_CHANGED. */
    public static final String CHANNEL = "table-changed-out";

    private final EventPublisher publisher;
    private final ServiceInstance instance;
    private final Clock clock;
    private final MeterRegistry registry;

    ChangePublisher(@Channel(CHANNEL) Emitter<CryoEvent> emitter, ServiceInstance instance, Clock clock,
                    MeterRegistry registry) {
        this.publisher = new EventPublisher(Map.of(Topics.TABLE_CHANGED, emitter));
        this.instance = instance;
        this.clock = clock;
        this.registry = registry;
    }

    /** Starts a chain with this change and waits until the broker has it. */
    public EventEnvelope<TableChanged> publish(TableChanged change) {
        EventEnvelope<TableChanged> envelope = EventEnvelope.startChain(change, instance.source(), clock.instant())
                .withActor(change.actor());
        publisher.publish(envelope);
        registry.counter("cryo.scanner.changes.published", "source", change.source().id()).increment();
        return envelope;
    }

    public void publishAll(List<TableChanged> changes) {
        if (changes.isEmpty()) {
            return;
        }
        List<EventEnvelope<TableChanged>> envelopes = changes.stream()
                .map(change -> EventEnvelope.startChain(change, instance.source(), clock.instant()).withActor(change.actor()))
                .toList();
        publisher.publish(envelopes);
        changes.forEach(change -> registry.counter("cryo.scanner.changes.published", "source", change.source().id())
                .increment());
    }
}
