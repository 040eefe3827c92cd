package dev.cryo.scanner.watch;

import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.ChangeSource;
import dev.cryo.contracts.event.TableChanged;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.platform.error.CommonErrorCode;
import dev.cryo.platform.error.CryoException;
import dev.cryo.scanner.ScannerErrorCode;
import dev.cryo.scanner.messaging.ChangePublisher;
import io.quarkus.logging.Log;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The safety net behind commit reports and the watcher: every {@code cryo.scanner.sweep-interval}
 * (default 6 hours) every table of every catalog is scanned, whatever was or was not noticed. An
 * operator can start one now, of every catalog, one catalog or one namespace of it (after an
 * outage of the watcher, or to re-grade a fleet after a policy change).
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

    /**
     * What a sweep asked for.
     *
     * @param tables tables it asked a scan of
     * @param byCatalog the same, per catalog
     * @param failures catalogs it could not list, with the reason (a whole-fleet sweep goes on without them)
     * @param requestedAt when it started
     */
    public record Swept(int tables, Map<String, Integer> byCatalog, List<String> failures, Instant requestedAt) {
        public Swept {
            byCatalog = Map.copyOf(byCatalog);
            failures = List.copyOf(failures);
        }
    }

    @Scheduled(every = "${cryo.scanner.sweep-interval}", delayed = "${cryo.scanner.sweep-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP, skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void scheduled() {
        sweep();
    }

    /** Asks for a scan of every table of every catalog; returns how many. */
    public int sweep() {
        return sweep(Optional.empty(), Optional.empty(), null).tables();
    }

    /**
     * Asks for a scan of every table of {@code catalog} (every catalog when empty), only those of
     * {@code namespace} and the namespaces under it when given. The changes carry {@code actor}
     * for the audit; they stay sweeps, so the cooldown applies to the plans that follow.
     *
     * @throws CryoException UNKNOWN_CATALOG for a catalog that is not configured, DEPENDENCY_UNAVAILABLE
     *                       when the named catalog cannot be listed, TABLE_NOT_FOUND when the namespace
     *                       holds no table
     */
    public Swept sweep(Optional<String> catalog, Optional<String> namespace, String actor) {
        Instant requestedAt = clock.instant();
        Set<String> names = registry.names();
        if (catalog.isPresent() && !names.contains(catalog.get())) {
            throw new CryoException(ScannerErrorCode.UNKNOWN_CATALOG, "Cannot sweep catalog '" + catalog.get()
                    + "': it is not configured here; configured catalogs are " + names);
        }
        Map<String, Integer> byCatalog = new LinkedHashMap<>();
        List<String> failures = new ArrayList<>();
        int total = 0;
        for (String name : catalog.map(Set::of).orElse(names)) {
            List<TableId> tables;
            try {
                tables = registry.listTables(name);
            } catch (RuntimeException e) {
                if (catalog.isPresent()) {
                    throw new CryoException(CommonErrorCode.DEPENDENCY_UNAVAILABLE, "Cannot sweep catalog " + name
                            + ": listing its tables failed: " + e.getMessage(), e);
                }
                Log.warnf("Cannot sweep catalog %s: %s", name, e.getMessage());
                failures.add(name + ": " + e.getMessage());
                continue;
            }
            if (namespace.isPresent()) {
                String prefix = namespace.get() + ".";
                tables = tables.stream().filter(table -> table.namespaceName().equals(namespace.get())
                        || table.namespaceName().startsWith(prefix)).toList();
                if (tables.isEmpty()) {
                    throw new CryoException(ScannerErrorCode.TABLE_NOT_FOUND, "Cannot sweep namespace '"
                            + namespace.get() + "' of catalog " + name + ": it holds no table");
                }
            }
            List<TableChanged> batch = new ArrayList<>();
            for (TableId table : tables) {
                batch.add(new TableChanged(table, ChangeSource.SWEEP, clock.instant(), null, null, null, null, null,
                        null, actor));
                if (batch.size() == BATCH) {
                    publisher.publishAll(batch);
                    batch.clear();
                }
            }
            publisher.publishAll(batch);
            byCatalog.put(name, tables.size());
            total += tables.size();
        }
        Log.infof("Sweep%s asked for a scan of %d table(s)%s%s", actor == null ? "" : " by " + actor, total,
                catalog.map(name -> " of catalog " + name).orElse(""), namespace.map(ns -> ", namespace " + ns).orElse(""));
        return new Swept(total, byCatalog, failures, requestedAt);
    }
}
