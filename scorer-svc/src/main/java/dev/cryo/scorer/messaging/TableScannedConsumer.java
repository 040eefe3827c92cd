package dev.cryo.scorer.messaging;

import dev.cryo.contracts.Topics;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.platform.messaging.EventConsumers;
import dev.cryo.platform.messaging.EventPublisher;
import dev.cryo.scorer.app.ScanGrader;
import io.smallrye.common.annotation.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * Hands every TableScanned to the {@link ScanGrader}, under the platform's consumer rules
 * (deduplication by event id, dead-lettering of what cannot be read). The grader publishes its own
 * events, so the handler returns none.
 */
@ApplicationScoped
public class TableScannedConsumer {

    static final String CONSUMER = "scorer";

    private final EventConsumers consumers;
    private final ScanGrader grader;
    private final EventPublisher nothingToPublish = new EventPublisher(Map.of());

    TableScannedConsumer(EventConsumers consumers, ScanGrader grader) {
        this.consumers = consumers;
        this.grader = grader;
    }

    @Incoming(Topics.TABLE_SCANNED)
    @Blocking
    public CompletionStage<Void> consume(Message<CryoEvent> message) {
        return consumers.consume(CONSUMER, message, envelope -> {
            grader.grade(envelope);
            return List.of();
        }, nothingToPublish);
    }
}
