package dev.cryo.scanner.domain;

import dev.cryo.contracts.TableId;

import java.time.Duration;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Coalesces changes into scans: a table waits at most once, and at most one scan of a table is
 * in flight. A change that arrives while its table is being scanned makes the table wait again,
 * so the next scan reads the newest snapshot; a burst of commits thus costs a few scans.
 */
public final class ScanQueue {

    private final Set<TableId> waiting = new LinkedHashSet<>();
    private final Set<TableId> inFlight = new HashSet<>();

    /** The table changed: it waits for a scan unless it already does. */
    public synchronized void offer(TableId table) {
        if (waiting.add(table)) {
            notifyAll();
        }
    }

    /** The next waiting table that is not being scanned, now in flight; empty after the timeout. */
    public synchronized Optional<TableId> take(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Iterator<TableId> candidates = waiting.iterator();
            while (candidates.hasNext()) {
                TableId table = candidates.next();
                if (!inFlight.contains(table)) {
                    candidates.remove();
                    inFlight.add(table);
                    return Optional.of(table);
                }
            }
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
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
