package dev.cryo.scanner.watch;

import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.ChangeSource;
import dev.cryo.contracts.event.TableChanged;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.platform.config.CatalogsConfig;
import dev.cryo.scanner.iceberg.MetadataScanner;
import dev.cryo.scanner.messaging.ChangePublisher;
import dev.cryo.scanner.persistence.WatcherStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.logging.Log;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Polls every catalog for changed metadata pointers (every {@code cryo.scanner.watcher-interval})
 * and publishes a TableChanged for each table whose pointer moved or that appeared. The pointers
 * it saw are kept in PostgreSQL, so a restart does not rescan every table.
 */
@ApplicationScoped
public class CatalogWatcher {

    private final Map<String, WatchedCatalog> sources = new LinkedHashMap<>();
    private final CatalogRegistry registry;
    private final WatcherStore store;
    private final ChangePublisher publisher;
    private final Clock clock;
    private final MeterRegistry meters;

    CatalogWatcher(CatalogsConfig config, CatalogRegistry registry, WatcherStore store, ChangePublisher publisher,
                   Clock clock, MeterRegistry meters) {
        this.registry = registry;
        this.store = store;
        this.publisher = publisher;
        this.clock = clock;
        this.meters = meters;
        config.catalogs().forEach((name, properties) -> sources.put(name,
                new WatchedCatalog(name, properties, PointerSources.forCatalog(name, properties, registry), clock)));
    }

    @Scheduled(every = "${cryo.scanner.watcher-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void poll() {
        sources.forEach((name, source) -> {
            if (source.due()) {
                poll(name);
            }
        });
    }

    /**
     * Polls one catalog now, even while it backs off after failures; returns the number of changes
     * published. A failure is logged once per change of error (see {@link WatchedCatalog}) and kept
     * for the catalogs endpoint, without the catalog's secrets.
     */
    public int poll(String catalog) {
        Instant polledAt = clock.instant();
        Map<TableId, String> current;
        try {
            current = sources.get(catalog).pointers();
        } catch (WatchedCatalog.PollFailure e) {
            meters.counter("cryo.scanner.watcher.polls", "catalog", catalog, "outcome", "failed").increment();
            store.recordPollFailure(catalog, polledAt, e.reason());
            return 0;
        }
        Map<TableId, String> known = store.pointers(catalog);
        Map<TableId, String> changed = new HashMap<>();
        current.forEach((table, location) -> {
            if (!location.equals(known.get(table))) {
                changed.put(table, location);
            }
        });
        List<TableId> vanished = known.keySet().stream().filter(table -> !current.containsKey(table)).toList();
        List<TableChanged> changes = new ArrayList<>();
        changed.forEach((table, location) -> changes.add(change(table, location, polledAt)));
        publisher.publishAll(changes);
        store.savePointers(catalog, changed, vanished);
        store.recordPoll(catalog, current.size(), polledAt);
        meters.counter("cryo.scanner.watcher.polls", "catalog", catalog, "outcome", "polled").increment();
        return changes.size();
    }

    /** The method a catalog's pointers are read with. */
    public String method(String catalog) {
        WatchedCatalog source = sources.get(catalog);
        return source == null ? null : source.method();
    }

    private TableChanged change(TableId table, String metadataLocation, Instant detectedAt) {
        // the snapshot behind the new pointer, best effort: the scan reads it anyway
        try {
            Table loaded = registry.load(table);
            Snapshot snapshot = loaded.currentSnapshot();
            if (snapshot != null) {
                return new TableChanged(table, ChangeSource.WATCHER, detectedAt, snapshot.snapshotId(),
                        snapshot.sequenceNumber(), snapshot.operation(), Instant.ofEpochMilli(snapshot.timestampMillis()),
                        metadataLocation, MetadataScanner.cryoJobIdOf(loaded), null);
            }
        } catch (RuntimeException e) {
            Log.debugf("Cannot load %s for its new snapshot: %s", table, e.getMessage());
        }
        return new TableChanged(table, ChangeSource.WATCHER, detectedAt, null, null, null, null, metadataLocation, null, null);
    }
}
