package dev.cryo.planner.messaging;

import dev.cryo.contracts.Topics;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.TableGraded;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.planner.PlannerErrorCode;
import dev.cryo.planner.app.PlanningService;
import dev.cryo.platform.error.CryoException;
import dev.cryo.platform.messaging.EventConsumers;
import dev.cryo.platform.messaging.EventPublisher;
import io.smallrye.common.annotation.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

import java.util.concurrent.CompletionStage;

/**
 * The planner's two inputs: scans (stored, the planner's only source of partition statistics)
 * and grades (planned once their scan is stored). Plans go out on {@link Topics#PLANS}, the scores
 * of the jobs a grade shows on {@link Topics#JOBS_RESULTS}.
 */
@ApplicationScoped
public class PlannerConsumers {

    private final EventConsumers consumers;
    private final EventPublisher publisher;
    private final PlanningService planning;

    PlannerConsumers(EventConsumers consumers, PlannerEvents events, PlanningService planning) {
        this.consumers = consumers;
        this.publisher = events.publisher();
        this.planning = planning;
    }

    @Incoming(Topics.TABLE_SCANNED)
    @Blocking
    public CompletionStage<Void> consumeScan(Message<CryoEvent> message) {
        return consumers.consume("planner-scans", message,
                envelope -> planning.scanned(as(envelope, TableScanned.class)), publisher);
    }

    @Incoming(Topics.TABLE_HEALTH)
    @Blocking
    public CompletionStage<Void> consumeGrade(Message<CryoEvent> message) {
        return consumers.consume("planner-grades", message,
                envelope -> planning.graded(as(envelope, TableGraded.class)), publisher);
    }

    @SuppressWarnings("unchecked")
    private static <T extends CryoEvent> EventEnvelope<T> as(EventEnvelope<CryoEvent> envelope, Class<T> type) {
        if (!type.isInstance(envelope.data())) {
            throw new CryoException(PlannerErrorCode.UNEXPECTED_EVENT, "Cannot plan from event " + envelope.id()
                    + ": expected " + type.getSimpleName() + ", got " + envelope.type().id());
        }
        return (EventEnvelope<T>) (EventEnvelope<?>) envelope;
    }
}
