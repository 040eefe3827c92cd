package dev.cryo.scanner.watch;

import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.ChangeSource;
import dev.cryo.contracts.event.OrphanStats;
import dev.cryo.contracts.event.TableChanged;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.iceberg.orphan.TableLocations;
import dev.cryo.scanner.config.ScannerBeans;
import dev.cryo.scanner.config.ScannerConfig;
import dev.cryo.scanner.iceberg.OrphanLister;
import dev.cryo.scanner.messaging.ChangePublisher;
import dev.cryo.scanner.persistence.TableStateStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.logging.Log;
import io.quarkus.scheduler.Scheduled;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Orphan listings: daily by default ({@code cryo.scanner.orphan-listing-interval}) for every
 * table, and on demand for one. A listing stores counts and bytes only, then asks for a scan so
 * that the next TableScanned carries them.
 */
@ApplicationScoped
public class OrphanListings {

    private final CatalogRegistry registry;
    private final OrphanLister lister;
    private final TableStateStore store;
    private final ChangePublisher publisher;
    private final ScannerConfig config;
    private final Clock clock;
    private final MeterRegistry meters;
    private final ExecutorService onDemand = Executors.newSingleThreadExecutor(ScannerBeans.daemonThreads("cryo-orphan-listing"));

    OrphanListings(CatalogRegistry registry, OrphanLister lister, TableStateStore store, ChangePublisher publisher,
                   ScannerConfig config, Clock clock, MeterRegistry meters) {
        this.registry = registry;
        this.lister = lister;
        this.store = store;
        this.publisher = publisher;
        this.config = config;
        this.clock = clock;
        this.meters = meters;
    }

    @Scheduled(every = "${cryo.scanner.orphan-listing-interval}", delayed = "${cryo.scanner.orphan-listing-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP, skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void scheduled() {
        TableLocations others;
        try {
            others = TableLocations.read(registry);
        } catch (RuntimeException e) {
            meters.counter("cryo.scanner.orphan.listing.errors").increment();
            Log.warnf("Cannot list orphans: %s; remove_orphan_files deletes nothing either until every configured"
                    + " catalog can be read", e.getMessage());
            return;
        }
        for (String catalog : registry.names()) {
            try {
                registry.listTables(catalog).forEach(table -> list(table, ChangeSource.SWEEP, null, null, others));
            } catch (RuntimeException e) {
                Log.warnf("Cannot list orphans in catalog %s: %s", catalog, e.getMessage());
            }
        }
    }

    /** Starts a listing of one table in the background; the scan that follows carries its result. */
    public void listSoon(TableId table, String actor) {
        onDemand.execute(() -> list(table, ChangeSource.MANUAL, actor));
    }

    /**
     * Lists the table again in the background after Cryo's job {@code jobId} removed orphan files
     * from it, then asks for a scan on the job's behalf; the scan is asked for even when the
     * listing fails, so that the job is still scored (against the older counts).
     */
    public void listAfterJob(TableId table, String jobId) {
        onDemand.execute(() -> {
            if (list(table, ChangeSource.JOB, null, jobId, null) == null) {
                publisher.publish(new TableChanged(table, ChangeSource.JOB, clock.instant(), null, null, null, null, null,
                        jobId, null));
            }
        });
    }

    /** Lists one table now and asks for a scan; returns the counts (null when the listing failed). */
    public OrphanStats list(TableId table, ChangeSource source, String actor) {
        return list(table, source, actor, null, null);
    }

    /** @param others the tables' folders read for a whole sweep, or null to read them now */
    private OrphanStats list(TableId table, ChangeSource source, String actor, String jobId, TableLocations others) {
        Timer.Sample sample = Timer.start(meters);
        try {
            OrphanStats orphans = lister.list(registry.load(table), config.orphanAgeFloor(),
                    others == null ? TableLocations.read(registry) : others);
            store.recordOrphans(table, orphans);
            publisher.publish(new TableChanged(table, source, clock.instant(), null, null, null, null, null, jobId, actor));
            sample.stop(meters.timer("cryo.scanner.orphan.listing.duration"));
            if (orphans.refusal() != null) {
                Log.warnf("Orphan listing of %s: refused: %s", table, orphans.refusal());
            } else {
                Log.infof("Orphan listing of %s: %d of %d files are orphans (%d bytes)%s", table, orphans.orphanFiles(),
                        orphans.listedFiles(), orphans.orphanBytes(), orphans.otherTablesFiles() == 0 ? ""
                                : "; " + orphans.otherTablesFiles() + " files of other tables under its location left out");
            }
            return orphans;
        } catch (RuntimeException e) {
            meters.counter("cryo.scanner.orphan.listing.errors").increment();
            Log.warnf("Cannot list orphan files of %s: %s", table, e.getMessage());
            return null;
        }
    }

    @PreDestroy
    void stop() {
        onDemand.shutdownNow();
    }
}
