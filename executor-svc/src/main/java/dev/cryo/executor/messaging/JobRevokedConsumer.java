package dev.cryo.executor.messaging;

import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.JobRevoked;
import dev.cryo.executor.persistence.JobRevocations;
import dev.cryo.platform.messaging.EventConsumers;
import dev.cryo.platform.messaging.EventPublisher;
import io.quarkus.logging.Log;
import io.smallrye.reactive.messaging.annotations.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * Revocations on {@code cryo.jobs.admitted.v1}, read by a consumer group of their own
 * ({@code cryo-executor-revocations}) on the default worker pool: the job consumer's pool may be
 * busy with long jobs, and a revocation must not wait behind the admission it withdraws. Each
 * is noted in PostgreSQL, where every executor looks before starting a job and before each step.
 */
@ApplicationScoped
public class JobRevokedConsumer {

    static final String CHANNEL = "job-revocations";

    private final EventConsumers consumers;
    private final JobRevocations revocations;
    private final EventPublisher nothing = new EventPublisher(Map.of());

    JobRevokedConsumer(EventConsumers consumers, JobRevocations revocations) {
        this.consumers = consumers;
        this.revocations = revocations;
    }

    @Incoming(CHANNEL)
    @Blocking(ordered = false)
    public CompletionStage<Void> consume(Message<CryoEvent> message) {
        return consumers.consume("executor-revocations", message, this::note, nothing);
    }

    private List<EventEnvelope<?>> note(EventEnvelope<CryoEvent> incoming) {
        if (incoming.data() instanceof JobRevoked revoked) {
            revocations.note(revoked);
            Log.infof("Job %s on %s revoked: %s", revoked.jobId(), revoked.table(), revoked.message());
        }
        return List.of();
    }
}
