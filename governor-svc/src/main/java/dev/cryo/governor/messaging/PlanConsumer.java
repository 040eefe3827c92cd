package dev.cryo.governor.messaging;

import dev.cryo.contracts.Topics;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.MaintenancePlanned;
import dev.cryo.governor.GovernorErrorCode;
import dev.cryo.governor.app.AdmissionLoop;
import dev.cryo.governor.app.AdmissionService;
import dev.cryo.platform.error.CryoException;
import dev.cryo.platform.messaging.EventConsumers;
import dev.cryo.platform.messaging.EventPublisher;
import io.smallrye.common.annotation.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * Queues each plan from the planner. The decision follows on the admission thread, and its
 * events leave through the outbox, so the record is acknowledged once the plan is stored.
 */
@ApplicationScoped
public class PlanConsumer {

    private static final EventPublisher NOTHING_TO_PUBLISH = new EventPublisher(Map.of());

    private final EventConsumers consumers;
    private final AdmissionService admissions;
    private final AdmissionLoop loop;

    PlanConsumer(EventConsumers consumers, AdmissionService admissions, AdmissionLoop loop) {
        this.consumers = consumers;
        this.admissions = admissions;
        this.loop = loop;
    }

    @Incoming(Topics.PLANS)
    @Blocking
    @SuppressWarnings("unchecked")
    public CompletionStage<Void> consume(Message<CryoEvent> message) {
        return consumers.consume("governor-plans", message, envelope -> {
            if (!(envelope.data() instanceof MaintenancePlanned)) {
                throw new CryoException(GovernorErrorCode.UNEXPECTED_EVENT, "Cannot queue event " + envelope.id()
                        + ": " + Topics.PLANS + " carries MaintenancePlanned, not " + envelope.type().id());
            }
            admissions.receive((EventEnvelope<MaintenancePlanned>) (EventEnvelope<?>) envelope);
            loop.request();
            return List.of();
        }, NOTHING_TO_PUBLISH);
    }
}
