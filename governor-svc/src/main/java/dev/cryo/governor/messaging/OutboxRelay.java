package dev.cryo.governor.messaging;

import dev.cryo.contracts.Topics;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.governor.persistence.OutboxStore;
import dev.cryo.platform.messaging.EventPublisher;
import io.quarkus.logging.Log;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Publishes what decisions wrote to the outbox, in decision order, and marks it published once
 * the broker acknowledged it. A governor that stopped before that publishes it on its next
 * pass (or another instance does); the event ids are the same, so consumers see it once.
 */
@ApplicationScoped
public class OutboxRelay {

    private static final int BATCH = 100;
    /**
     * The relay's transaction outlives the publish it waits for (cryo.messaging.publish-timeout)
     * by this much, so a broker outage ends in the producer's verdict, not in the transaction
     * reaper cancelling the relay's statements halfway.
     */
    private static final Duration TRANSACTION_MARGIN = Duration.ofSeconds(60);

    private final OutboxStore outbox;
    private final EventPublisher publisher;
    private final Clock clock;
    private final int transactionTimeoutSeconds;

    OutboxRelay(OutboxStore outbox, @Channel(Topics.JOBS_ADMITTED) Emitter<CryoEvent> admitted,
                @Channel(Topics.JOBS_DEFERRED) Emitter<CryoEvent> deferred, Clock clock) {
        this.outbox = outbox;
        this.publisher = new EventPublisher(Map.of(Topics.JOBS_ADMITTED, admitted, Topics.JOBS_DEFERRED, deferred));
        this.clock = clock;
        this.transactionTimeoutSeconds = (int) publisher.publishTimeout().plus(TRANSACTION_MARGIN).toSeconds();
    }

    /** Publishes every pending event; returns how many. */
    public int publishPending() {
        int published = 0;
        while (true) {
            int batch = QuarkusTransaction.requiringNew().timeout(transactionTimeoutSeconds).call(() -> {
                if (!outbox.takeTurn()) {
                    Log.debug("Another governor instance publishes the outbox now; this pass leaves it to that one");
                    return 0;
                }
                List<OutboxStore.Pending> pending = outbox.pending(BATCH);
                if (pending.isEmpty()) {
                    return 0;
                }
                List<EventEnvelope<CryoEvent>> envelopes = pending.stream().map(OutboxStore.Pending::envelope).toList();
                publisher.publish(envelopes);
                outbox.published(pending.stream().map(OutboxStore.Pending::sequence).toList(), clock.instant());
                return pending.size();
            });
            published += batch;
            if (batch < BATCH) {
                return published;
            }
        }
    }
}
