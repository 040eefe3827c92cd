package dev.cryo.scanner.app;

import dev.cryo.contracts.TableId;
import dev.cryo.scanner.config.ScannerBeans;
import dev.cryo.scanner.config.ScannerConfig;
import dev.cryo.scanner.domain.ScanQueue;
import dev.cryo.scanner.persistence.TableStateStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.logging.Log;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A few threads that scan tables from the {@link ScanQueue}: at most one scan per table at a
 * time, and a table that changed during its scan is scanned once more afterwards. At start-up,
 * tables whose changes were stored but not yet scanned (a crash, a restart) are queued again.
 */
@ApplicationScoped
public class ScanWorkers {

    private final ScanQueue queue;
    private final TableScans scans;
    private final TableStateStore store;
    private final ScannerConfig config;
    private final List<Thread> threads = new ArrayList<>();
    private final ScheduledExecutorService retries = Executors.newSingleThreadScheduledExecutor(
            ScannerBeans.daemonThreads("cryo-scan-retry"));
    private volatile boolean running;

    ScanWorkers(TableScans scans, TableStateStore store, ScannerConfig config, MeterRegistry registry) {
        this.scans = scans;
        this.store = store;
        this.config = config;
        this.queue = new ScanQueue(config.coalescingDelay());
        registry.gauge("cryo.scanner.tables.waiting", queue, ScanQueue::waitingCount);
    }

    void start(@Observes StartupEvent event) {
        running = true;
        for (int i = 0; i < Math.max(1, config.scanWorkers()); i++) {
            Thread thread = new Thread(this::work, "cryo-scan-worker-" + (i + 1));
            thread.setDaemon(true);
            thread.start();
            threads.add(thread);
        }
        resumePending();
    }

    /**
     * Queues every table whose stored changes were not scanned yet (a crash or a stop between
     * storing a change and publishing its scan); called at start-up.
     */
    public int resumePending() {
        List<TableId> pending = store.pendingTables();
        if (!pending.isEmpty()) {
            Log.infof("Resuming %d table(s) whose changes were not scanned before the last stop", pending.size());
        }
        pending.forEach(queue::offer);
        return pending.size();
    }

    void stop(@Observes ShutdownEvent event) {
        running = false;
        threads.forEach(Thread::interrupt);
        retries.shutdownNow();
    }

    /** The table changed: it will be scanned (once, however often it is offered before its scan starts). */
    public void offer(TableId table) {
        queue.offer(table);
    }

    /** True when no table waits and no scan runs (tests wait for this). */
    public boolean isIdle() {
        return queue.isIdle();
    }

    private void work() {
        while (running) {
            TableId table;
            try {
                table = queue.take(Duration.ofSeconds(1)).orElse(null);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (table == null) {
                continue;
            }
            try {
                if (scans.scan(table) == TableScans.Outcome.RETRY) {
                    retryLater(table);
                }
            } catch (RuntimeException e) {
                // a bug must not kill the worker; the table is tried again later
                Log.errorf(e, "Scanning %s failed unexpectedly", table);
                retryLater(table);
            } finally {
                queue.done(table);
            }
        }
    }

    private void retryLater(TableId table) {
        if (running) {
            retries.schedule(() -> queue.offer(table), config.retryDelay().toMillis(), TimeUnit.MILLISECONDS);
        }
    }
}
