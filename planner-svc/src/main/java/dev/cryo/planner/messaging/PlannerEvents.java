package dev.cryo.planner.messaging;

import dev.cryo.contracts.Topics;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.platform.messaging.EventPublisher;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;

/**
 * What the planner publishes: plans on {@link Topics#PLANS} and job scores on
 * {@link Topics#JOBS_RESULTS}. Scores go out through their own channel ({@value #JOB_SCORES_CHANNEL},
 * mapped to the topic in application.properties): the planner also reads that topic, and a channel
 * that is both incoming and outgoing in one application would be wired in memory and never reach
 * the broker.
 */
@ApplicationScoped
public class PlannerEvents {

    public static final String JOB_SCORES_CHANNEL = "job-scores";

    private final EventPublisher publisher;

    PlannerEvents(@Channel(Topics.PLANS) Emitter<CryoEvent> plans, @Channel(JOB_SCORES_CHANNEL) Emitter<CryoEvent> scores) {
        this.publisher = new EventPublisher(java.util.Map.of(Topics.PLANS, plans, Topics.JOBS_RESULTS, scores));
    }

    public EventPublisher publisher() {
        return publisher;
    }
}
