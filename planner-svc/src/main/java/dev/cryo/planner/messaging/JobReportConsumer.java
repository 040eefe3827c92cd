package dev.cryo.planner.messaging;

import dev.cryo.contracts.Topics;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.JobFinished;
import dev.cryo.contracts.event.JobStarted;
import dev.cryo.planner.domain.PlanStatus;
import dev.cryo.planner.persistence.PlanStore;
import dev.cryo.platform.messaging.EventConsumers;
import dev.cryo.platform.messaging.EventPublisher;
import io.quarkus.logging.Log;
import io.smallrye.common.annotation.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * Follows the executors' reports so that plan history shows which plans started and finished,
 * and a finished plan is never named as superseded. Heartbeats and per-operation reports are
 * not needed for that and are passed over. Recording a report is naturally idempotent.
 */
@ApplicationScoped
public class JobReportConsumer {

    private static final EventPublisher PUBLISHES_NOTHING = new EventPublisher(Map.of());

    private final EventConsumers consumers;
    private final PlanStore store;

    JobReportConsumer(EventConsumers consumers, PlanStore store) {
        this.consumers = consumers;
        this.store = store;
    }

    @Incoming(Topics.JOBS_RESULTS)
    @Blocking
    public CompletionStage<Void> consume(Message<CryoEvent> message) {
        return consumers.consume("planner-job-reports", message, envelope -> {
            if (envelope.data() instanceof JobStarted started) {
                record(started.planId(), PlanStatus.STARTED, started.startedAt());
            } else if (envelope.data() instanceof JobFinished finished) {
                record(finished.planId(), PlanStatus.FINISHED, finished.finishedAt());
            }
            return List.of();
        }, PUBLISHES_NOTHING);
    }

    private void record(String planId, PlanStatus status, java.time.Instant at) {
        if (store.recordReport(planId, status, at)) {
            Log.infof("plan %s: %s", planId, status);
        } else {
            Log.debugf("plan %s: %s report changes no stored plan", planId, status);
        }
    }
}
