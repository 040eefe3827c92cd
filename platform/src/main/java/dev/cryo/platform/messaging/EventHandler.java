package dev.cryo.platform.messaging;

import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.CryoEvent;

import java.util.List;

/** The work a consumer does for one event: returns the events to publish as its result. */
@FunctionalInterface
public interface EventHandler {
    List<? extends EventEnvelope<?>> handle(EventEnvelope<CryoEvent> event);
}
