package dev.cryo.planner.messaging;

import dev.cryo.contracts.Topics;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.JobFinished;
import dev.cryo.contracts.event.JobStarted;
import dev.cryo.planner.app.JobScoring;
import dev.cryo.planner.domain.PlanStatus;
import dev.cryo.planner.persistence.PlanStore;
import dev.cryo.platform.messaging.EventConsumers;
import dev.cryo.platform.messaging.EventPublisher;
import io.quarkus.logging.Log;
import io.smallrye.common.annotation.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

import java.util.concurrent.CompletionStage;

/**
 * Follows the executors' reports so that plan history shows which plans started and finished,
 * and a finished plan is never named as superseded; operation reports and job ends also feed the
 * jobs' scores ({@link JobScoring}). Heartbeats and the planner's own scores on the same topic are
 * passed over. Recording a report is naturally idempotent.
 */
@ApplicationScoped
public class JobReportConsumer {

    private final EventConsumers consumers;
    private final PlanStore store;
    private final JobScoring scoring;
    private final EventPublisher publisher;

    JobReportConsumer(EventConsumers consumers, PlanStore store, JobScoring scoring, PlannerEvents events) {
        this.consumers = consumers;
        this.store = store;
        this.scoring = scoring;
        this.publisher = events.publisher();
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
            return scoring.reported(envelope);
        }, publisher);
    }

    private void record(String planId, PlanStatus status, java.time.Instant at) {
        if (store.recordReport(planId, status, at)) {
            Log.infof("plan %s: %s", planId, status);
        } else {
            Log.debugf("plan %s: %s report changes no stored plan", planId, status);
        }
    }
}
