package dev.cryo.scanner.watch;

import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.ChangeSource;
import dev.cryo.contracts.event.TableChanged;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.scanner.messaging.ChangePublisher;
import io.quarkus.logging.Log;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * The safety net behind commit reports and the watcher: every {@code cryo.scanner.sweep-interval}
 * (default 6 hours) every table of every catalog is scanned, whatever was or was not noticed.
 */
@ApplicationScoped
public class Sweeps {

    private static final int BATCH = 500;

    private final CatalogRegistry registry;
    private final ChangePublisher publisher;
    private final Clock clock;

    Sweeps(CatalogRegistry registry, ChangePublisher publisher, Clock clock) {
        this.registry = registry;
        this.publisher = publisher;
        this.clock = clock;
    }

    @Scheduled(every = "${cryo.scanner.sweep-interval}", delayed = "${cryo.scanner.sweep-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP, skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void scheduled() {
        sweep();
    }

    /** Asks for a scan of every table of every catalog; returns how many. */
    public int sweep() {
        int total = 0;
        for (String catalog : registry.names()) {
            List<TableId> tables;
            try {
                tables = registry.listTables(catalog);
            } catch (RuntimeException e) {
                Log.warnf("Cannot sweep catalog %s: %s", catalog, e.getMessage());
                continue;
            }
            List<TableChanged> batch = new ArrayList<>();
            for (TableId table : tables) {
                batch.add(TableChanged.of(table, ChangeSource.SWEEP, clock.instant()));
                if (batch.size() == BATCH) {
                    publisher.publishAll(batch);
                    batch.clear();
                }
            }
            publisher.publishAll(batch);
            total += tables.size();
        }
        Log.infof("Sweep asked for a scan of %d table(s)", total);
        return total;
    }
}
