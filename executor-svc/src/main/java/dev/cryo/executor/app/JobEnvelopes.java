package dev.cryo.executor.app;

import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.cloudevents.EventType;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.platform.config.ServiceInstance;

import java.time.Clock;

/** The envelopes of a job's results: this executor as source, the admission's correlation id and actor. */
final class JobEnvelopes {

    private final ServiceInstance instance;
    private final Clock clock;

    JobEnvelopes(ServiceInstance instance, Clock clock) {
        this.instance = instance;
        this.clock = clock;
    }

    <T extends CryoEvent> EventEnvelope<T> of(String id, T data, EventEnvelope<CryoEvent> incoming) {
        return new EventEnvelope<>(id, EventType.of(data), instance.source(), clock.instant(), data.table().toString(),
                incoming.correlationId(), incoming.actor(), data);
    }
}
