package dev.cryo.scanner.messaging;

import dev.cryo.contracts.Topics;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.TableChanged;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.platform.messaging.EventConsumers;
import dev.cryo.platform.messaging.EventPublisher;
import dev.cryo.scanner.app.ScanWorkers;
import dev.cryo.scanner.persistence.TableStateStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.logging.Log;
import io.smallrye.common.annotation.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * Records every TableChanged in PostgreSQL (with its event id, in one transaction) and hands the
 * table to the scan workers; it never waits for a scan, so a burst of commits costs a burst of
 * small inserts, and the workers coalesce them. The record is acknowledged only after the change
 * is stored, so a crash loses nothing: pending tables are scanned after a restart.
 */
@ApplicationScoped
public class TableChangedConsumer {

    private final EventConsumers consumers;
    private final TableStateStore store;
    private final ScanWorkers workers;
    private final CatalogRegistry catalogs;
    private final MeterRegistry registry;
    private final EventPublisher nothingToPublish = new EventPublisher(Map.of());

    TableChangedConsumer(EventConsumers consumers, TableStateStore store, ScanWorkers workers, CatalogRegistry catalogs,
                         MeterRegistry registry) {
        this.consumers = consumers;
        this.store = store;
        this.workers = workers;
        this.catalogs = catalogs;
        this.registry = registry;
    }

    @Incoming(Topics.TABLE_CHANGED)
    @Blocking
    public CompletionStage<Void> consume(Message<CryoEvent> message) {
        return consumers.consume("scanner", message, this::record, nothingToPublish);
    }

    @SuppressWarnings("unchecked")
    private List<EventEnvelope<?>> record(EventEnvelope<CryoEvent> envelope) {
        if (!(envelope.data() instanceof TableChanged change)) {
            throw new IllegalArgumentException("Cannot handle " + envelope.type().id() + " on " + Topics.TABLE_CHANGED
                    + ": the scanner only reads TableChanged");
        }
        if (!catalogs.names().contains(change.table().catalog())) {
            // the topic is shared: changes of catalogs another Cryo (or a test) watches are not ours
            Log.debugf("Ignoring a change of %s: catalog %s is not configured here", change.table(), change.table().catalog());
            registry.counter("cryo.scanner.changes.ignored", "reason", "unknown-catalog").increment();
            return List.of();
        }
        TableStateStore.Recorded recorded = store.recordChange((EventEnvelope<TableChanged>) (EventEnvelope<?>) envelope);
        registry.counter("cryo.scanner.changes", "source", change.source().id(), "outcome",
                recorded.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-')).increment();
        if (recorded != TableStateStore.Recorded.ALREADY_SCANNED) {
            workers.offer(change.table());
        }
        Log.debugf("Change %s of %s (%s, detected %s): %s", envelope.id(), change.table(), change.source().id(),
                change.detectedAt(), recorded);
        return List.of();
    }
}
