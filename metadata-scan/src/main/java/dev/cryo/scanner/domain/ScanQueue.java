package dev.cryo.scanner.domain;

import dev.cryo.contracts.TableId;

import java.time.Duration;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Coalesces changes into scans: a table waits at most once, and at most one scan of a table is
 * in flight. A table becomes ready a short coalescing delay after its first waiting change
 * (later changes do not push it back, so the delay bounds the added latency); a change that
 * arrives while the table is being scanned makes it wait again, so the next scan reads the
 * newest snapshot. A burst of commits thus costs a few scans.
 */
public final class ScanQueue {

    private final Map<TableId, Long> waiting = new LinkedHashMap<>();
    private final Set<TableId> inFlight = new HashSet<>();
    private final long delayNanos;
    private final LongSupplier nanoTime;

    public ScanQueue(Duration coalescingDelay) {
        this(coalescingDelay, System::nanoTime);
    }

    ScanQueue(Duration coalescingDelay, LongSupplier nanoTime) {
        this.delayNanos = coalescingDelay.toNanos();
        this.nanoTime = nanoTime;
    }

    /** The table changed: it waits for a scan unless it already does. */
    public synchronized void offer(TableId table) {
        if (!waiting.containsKey(table)) {
            waiting.put(table, nanoTime.getAsLong() + delayNanos);
            notifyAll();
        }
    }

    /** The next ready table that is not being scanned, now in flight; empty after the timeout. */
    public synchronized Optional<TableId> take(Duration timeout) throws InterruptedException {
        long deadline = nanoTime.getAsLong() + timeout.toNanos();
        while (true) {
            long now = nanoTime.getAsLong();
            long nextReady = Long.MAX_VALUE;
            Iterator<Map.Entry<TableId, Long>> candidates = waiting.entrySet().iterator();
            while (candidates.hasNext()) {
                Map.Entry<TableId, Long> candidate = candidates.next();
                if (inFlight.contains(candidate.getKey())) {
                    continue;
                }
                if (candidate.getValue() - now <= 0) {
                    candidates.remove();
                    inFlight.add(candidate.getKey());
                    return Optional.of(candidate.getKey());
                }
                nextReady = Math.min(nextReady, candidate.getValue());
            }
            long until = Math.min(deadline, nextReady);
            long remaining = until - now;
            if (deadline - now <= 0) {
                return Optional.empty();
            }
            wait(Math.max(1, remaining / 1_000_000));
        }
    }

    /** The scan of the table is over (whatever its outcome). */
    public synchronized void done(TableId table) {
        inFlight.remove(table);
        notifyAll();
    }

    public synchronized int waitingCount() {
        return waiting.size();
    }

    public synchronized boolean isIdle() {
        return waiting.isEmpty() && inFlight.isEmpty();
    }
}
