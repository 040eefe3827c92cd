package dev.cryo.scanner.app;

import dev.cryo.contracts.TableId;
import dev.cryo.contracts.Topics;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.ChangeSource;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.platform.config.ServiceInstance;
import dev.cryo.platform.error.CryoException;
import dev.cryo.platform.messaging.EventIds;
import dev.cryo.platform.messaging.EventPublisher;
import dev.cryo.scanner.iceberg.MetadataScanner;
import dev.cryo.scanner.persistence.PendingChange;
import dev.cryo.scanner.persistence.TableStateStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * One scan of one table: read its newest pending change, load the table, measure it from
 * metadata, publish the TableScanned (correlated with the newest coalesced TableChanged, and
 * carrying the operator as its actor when that change is a "fix now"), then mark the change as
 * scanned. A table that cannot be read gets an error record
 * instead, and the change counts as handled: no endless retry.
 */
@ApplicationScoped
public class TableScans {

    /** What became of a scan. */
    public enum Outcome { SCANNED, FAILED, NOTHING_PENDING, RETRY }

    private final TableStateStore store;
    private final CatalogRegistry catalogs;
    private final MetadataScanner scanner;
    private final EventPublisher publisher;
    private final ServiceInstance instance;
    private final Clock clock;
    private final MeterRegistry registry;

    TableScans(TableStateStore store, CatalogRegistry catalogs, MetadataScanner scanner,
               @Channel(Topics.TABLE_SCANNED) Emitter<CryoEvent> scanned, ServiceInstance instance, Clock clock,
               MeterRegistry registry) {
        this.store = store;
        this.catalogs = catalogs;
        this.scanner = scanner;
        this.publisher = new EventPublisher(Map.of(Topics.TABLE_SCANNED, scanned));
        this.instance = instance;
        this.clock = clock;
        this.registry = registry;
    }

    public Outcome scan(TableId tableId) {
        Optional<PendingChange> pending;
        try {
            pending = store.pending(tableId);
        } catch (CryoException e) {
            Log.warnf("Cannot scan %s now: %s", tableId, e.getMessage());
            return Outcome.RETRY;
        }
        if (pending.isEmpty()) {
            return Outcome.NOTHING_PENDING;
        }
        PendingChange change = pending.get();
        TableScanned scan;
        try {
            Table table = catalogs.load(tableId);
            scan = scanner.scan(tableId, table, store.orphans(tableId).orElse(null));
        } catch (CryoException e) {
            if (e.isRetryable()) {
                Log.warnf("Cannot scan %s now: %s", tableId, e.getMessage());
                return Outcome.RETRY;
            }
            return failed(change, "error", e.getMessage());
        } catch (NoSuchTableException e) {
            return failed(change, "not-found", "Cannot scan " + tableId + ": the catalog has no such table ("
                    + e.getMessage() + ")");
        } catch (RuntimeException e) {
            return failed(change, "unreadable", "Cannot scan " + tableId + ": " + e.getClass().getSimpleName() + ": "
                    + e.getMessage());
        }
        EventEnvelope<TableScanned> envelope = new EventEnvelope<>(
                EventIds.derived(change.changeId(), "scanned/" + scan.snapshotId()),
                dev.cryo.contracts.cloudevents.EventType.TABLE_SCANNED, instance.source(), scan.scannedAt(),
                tableId.toString(), change.changeId(), operatorRequest(change), scan);
        try {
            publisher.publish(envelope);
            store.recordScan(change, scan);
        } catch (CryoException e) {
            Log.warnf("Cannot publish the scan of %s now: %s", tableId, e.getMessage());
            return Outcome.RETRY;
        }
        record(change, scan);
        return Outcome.SCANNED;
    }

    private Outcome failed(PendingChange change, String reason, String message) {
        Log.warnf("%s", message);
        registry.counter("cryo.scanner.scan.errors", "reason", reason).increment();
        registry.counter("cryo.scanner.scans", "source", String.valueOf(change.source()), "outcome", "failed").increment();
        try {
            store.recordError(change, message);
        } catch (CryoException e) {
            Log.warnf("Cannot record the scan error of %s: %s", change.table(), e.getMessage());
            return Outcome.RETRY;
        }
        return Outcome.FAILED;
    }

    private void record(PendingChange change, TableScanned scan) {
        registry.counter("cryo.scanner.scans", "source", String.valueOf(change.source()), "outcome", "scanned").increment();
        Timer.builder("cryo.scanner.scan.duration").description("Time one metadata scan took")
                .register(registry).record(scan.scanDuration());
        registry.counter("cryo.scanner.manifests", "outcome", "read").increment(scan.counters().manifestsRead());
        registry.counter("cryo.scanner.manifests", "outcome", "cached").increment(scan.counters().manifestsCached());
        Instant now = clock.instant();
        if (change.pendingSince() != null) {
            Timer.builder("cryo.scanner.change.to.scan").description("From the first unscanned change being detected to its scan being published")
                    .register(registry).record(positive(Duration.between(change.pendingSince(), now)));
        }
        if (change.committedAt() != null) {
            Timer.builder("cryo.scanner.commit.to.scan").description("From the writer's commit to its scan being published")
                    .register(registry).record(positive(Duration.between(change.committedAt(), now)));
        }
        Log.debugf("Scanned %s at snapshot %s in %s (%d manifests read, %d cached)", change.table(), scan.snapshotId(),
                scan.scanDuration(), scan.counters().manifestsRead(), scan.counters().manifestsCached());
    }

    private static Duration positive(Duration duration) {
        return duration.isNegative() ? Duration.ZERO : duration;
    }

    /**
     * The actor a scan passes on: downstream, an actor means "an operator asked for this" (the
     * planner plans even a grade-A table, the governor waives the cooldown). Only a manual scan
     * is such a request; the caller of a webhook or a writer's commit reporter told Cryo that a
     * table changed, which is the event flow (their name stays on the TableChanged for the audit).
     */
    private static String operatorRequest(PendingChange change) {
        return ChangeSource.MANUAL.id().equals(change.source()) ? change.actor() : null;
    }
}
