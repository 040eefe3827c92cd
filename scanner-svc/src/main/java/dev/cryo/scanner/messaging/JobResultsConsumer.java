package dev.cryo.scanner.messaging;

import dev.cryo.contracts.Operation;
import dev.cryo.contracts.Topics;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.ChangeSource;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.JobFinished;
import dev.cryo.contracts.event.OperationFinished;
import dev.cryo.contracts.event.OperationStatus;
import dev.cryo.contracts.event.TableChanged;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.scanner.watch.OrphanListings;
import dev.cryo.platform.messaging.EventConsumers;
import dev.cryo.platform.messaging.EventPublisher;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.logging.Log;
import io.smallrye.common.annotation.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Looks again at a table after Cryo's own job on it, so that the job is scored against a grade
 * that shows it:
 *
 * <ul>
 *   <li>every finished job asks for a scan ({@link ChangeSource#JOB}), also one that failed or changed
 *       nothing: the planner scores each job by the first grade of a scan after it.
 *       The watcher and the writers' reports announce new snapshots only, and an expiry or an
 *       orphan removal leaves the current snapshot as it was;</li>
 *   <li>an orphan removal that deleted files starts a new orphan listing, since the last one
 *       still counts the files just deleted; that listing asks for the job's scan when it is done,
 *       so the scan carries the new counts.</li>
 * </ul>
 *
 * Other reports on the topic (starts, heartbeats, scores) are passed over.
 */
@ApplicationScoped
public class JobResultsConsumer {

    private final EventConsumers consumers;
    private final ChangePublisher changes;
    private final OrphanListings orphanListings;
    private final CatalogRegistry catalogs;
    private final Clock clock;
    private final MeterRegistry registry;
    private final EventPublisher nothingToPublish = new EventPublisher(Map.of());
    /** Jobs whose scan the orphan listing after them asks for (one table's reports arrive in order). */
    private final Set<String> listingAfterJob = ConcurrentHashMap.newKeySet();

    JobResultsConsumer(EventConsumers consumers, ChangePublisher changes, OrphanListings orphanListings,
                       CatalogRegistry catalogs, Clock clock, MeterRegistry registry) {
        this.consumers = consumers;
        this.changes = changes;
        this.orphanListings = orphanListings;
        this.catalogs = catalogs;
        this.clock = clock;
        this.registry = registry;
    }

    @Incoming(Topics.JOBS_RESULTS)
    @Blocking
    public CompletionStage<Void> consume(Message<CryoEvent> message) {
        return consumers.consume("scanner-job-results", message, this::handle, nothingToPublish);
    }

    private List<EventEnvelope<?>> handle(EventEnvelope<CryoEvent> envelope) {
        if (envelope.data() instanceof OperationFinished operation && removedOrphans(operation) && ours(operation.table().catalog())) {
            Log.infof("%s: job %s removed orphan files; listing the table again", operation.table(), operation.jobId());
            registry.counter("cryo.scanner.job.results", "action", "orphan-listing").increment();
            listingAfterJob.add(operation.jobId());
            orphanListings.listAfterJob(operation.table(), operation.jobId());
        } else if (envelope.data() instanceof JobFinished finished && ours(finished.table().catalog())
                && !listingAfterJob.remove(finished.jobId())) {
            changes.publish(new TableChanged(finished.table(), ChangeSource.JOB, clock.instant(), null, null, null, null,
                    null, finished.jobId(), null));
            registry.counter("cryo.scanner.job.results", "action", "scan").increment();
        }
        return List.of();
    }

    private static boolean removedOrphans(OperationFinished operation) {
        return operation.operation() == Operation.REMOVE_ORPHAN_FILES && operation.status() == OperationStatus.SUCCEEDED
                && !Boolean.FALSE.equals(operation.changed());
    }

    /** The topic is shared: results of catalogs another Cryo (or a test) watches are not ours. */
    private boolean ours(String catalog) {
        return catalogs.names().contains(catalog);
    }
}
