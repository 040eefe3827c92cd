package dev.cryo.governor.messaging;

import dev.cryo.contracts.Topics;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.JobResult;
import dev.cryo.governor.GovernorErrorCode;
import dev.cryo.governor.app.AdmissionLoop;
import dev.cryo.governor.app.JobEvents;
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

/** Executors' reports: starts and heartbeats renew leases, a finish frees the table and the slot. */
@ApplicationScoped
public class ResultConsumer {

    private static final EventPublisher NOTHING_TO_PUBLISH = new EventPublisher(Map.of());

    private final EventConsumers consumers;
    private final JobEvents jobEvents;
    private final AdmissionLoop loop;

    ResultConsumer(EventConsumers consumers, JobEvents jobEvents, AdmissionLoop loop) {
        this.consumers = consumers;
        this.jobEvents = jobEvents;
        this.loop = loop;
    }

    @Incoming(Topics.JOBS_RESULTS)
    @Blocking
    public CompletionStage<Void> consume(Message<CryoEvent> message) {
        return consumers.consume("governor-results", message, envelope -> {
            if (!(envelope.data() instanceof JobResult result)) {
                throw new CryoException(GovernorErrorCode.UNEXPECTED_EVENT, "Cannot apply event " + envelope.id()
                        + ": " + Topics.JOBS_RESULTS + " carries job results, not " + envelope.type().id());
            }
            jobEvents.apply(result).ifPresent(loop::slotFreed);
            return List.of();
        }, NOTHING_TO_PUBLISH);
    }
}
