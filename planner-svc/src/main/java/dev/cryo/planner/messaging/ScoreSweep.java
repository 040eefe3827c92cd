package dev.cryo.planner.messaging;

import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.JobScored;
import dev.cryo.planner.app.JobScoring;
import dev.cryo.platform.error.CryoException;
import io.quarkus.logging.Log;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;

/**
 * Publishes, without an actual score, the finished jobs that no grade has shown within
 * {@code cryo.planner.score-wait} (a table the scanner cannot read any more, a scanner that is
 * down). A score that is stored but fails to publish stays readable from
 * {@code GET /api/v1/jobs/{jobId}/score}.
 */
@ApplicationScoped
public class ScoreSweep {

    private static final int BATCH = 100;

    private final JobScoring scoring;
    private final PlannerEvents events;

    ScoreSweep(JobScoring scoring, PlannerEvents events) {
        this.scoring = scoring;
        this.events = events;
    }

    @Scheduled(every = "${cryo.planner.score-sweep-interval:PT1M}", delayed = "${cryo.planner.score-sweep-interval:PT1M}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP, skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void sweep() {
        try {
            List<EventEnvelope<JobScored>> scored;
            do {
                scored = scoring.sweep(BATCH);
                events.publisher().publish(scored);
            } while (scored.size() == BATCH);
        } catch (CryoException | IllegalStateException e) {
            Log.warnf("Cannot publish the scores of jobs that no grade followed: %s", e.getMessage());
        }
    }
}
