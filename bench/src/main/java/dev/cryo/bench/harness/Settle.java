package dev.cryo.bench.harness;

import dev.cryo.contracts.event.JobAdmitted;
import dev.cryo.contracts.event.JobFinished;
import org.apache.iceberg.Table;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Waits until Cryo has nothing left to do for a namespace: every table graded at its current
 * snapshot, nothing queued or running in the governor, no admitted job without its result, and
 * all of that unchanged for the stability window (PROTOCOL.md: 10 s).
 */
public final class Settle {

    public static final Duration STABLE_FOR = Duration.ofSeconds(10);

    private Settle() {
    }

    /**
     * What {@link #await(BenchContext, String, List, Duration, Duration, Supplier)} saw: the time from the call until
     * the first moment of the stable window, and the reading taken a fixed time after that moment.
     */
    public record Settled<T>(Duration quietAfter, T reading) {
    }

    /** Returns the time from the call until the first moment of the stable window. */
    public static Duration await(BenchContext context, String namespace, List<String> tables, Duration timeout) {
        return await(context, namespace, tables, timeout, true, STABLE_FOR, Duration.ZERO, () -> null).quietAfter();
    }

    /**
     * As {@link #await(BenchContext, String, List, Duration)}, and takes {@code read} {@code readAfter} after the first
     * moment of the stable window ({@code readAfter} shorter than {@link #STABLE_FOR}): a measurement of the work that
     * ends there and not {@link #STABLE_FOR} later, when the stable window has been waited out.
     */
    public static <T> Settled<T> await(BenchContext context, String namespace, List<String> tables, Duration timeout,
                                       Duration readAfter, Supplier<T> read) {
        if (readAfter.compareTo(STABLE_FOR) >= 0) {
            throw new IllegalArgumentException("Cannot read " + readAfter + " after the namespace is quiet: the stable"
                    + " window is " + STABLE_FOR);
        }
        return await(context, namespace, tables, timeout, true, STABLE_FOR, readAfter, read);
    }

    /**
     * For a namespace that the governor pauses (a contender's copy): only waits until every table
     * is graded at its current snapshot; its plans stay deferred in the queue by design.
     */
    public static Duration awaitGraded(BenchContext context, String namespace, List<String> tables, Duration timeout) {
        // nothing writes to or maintains a paused copy any more, so a grade at its current snapshot is final: no
        // stability window needed
        return await(context, namespace, tables, timeout, false, Duration.ZERO, Duration.ZERO, () -> null).quietAfter();
    }

    private static <T> Settled<T> await(BenchContext context, String namespace, List<String> tables, Duration timeout,
                                        boolean idleGovernor, Duration stableFor, Duration readAfter, Supplier<T> read) {
        long started = System.nanoTime();
        long deadline = started + timeout.toNanos();
        Long quietSince = null;
        T reading = null;
        boolean taken = false;
        String lastReason = "not checked yet";
        while (System.nanoTime() < deadline) {
            // taken before the check, at its time: a check that finds the namespace busy again discards it
            if (quietSince != null && !taken && System.nanoTime() - quietSince >= readAfter.toNanos()) {
                reading = read.get();
                taken = true;
            }
            String reason = busy(context, namespace, tables, idleGovernor);
            long now = System.nanoTime();
            if (reason == null) {
                if (quietSince == null) {
                    quietSince = now;
                }
                if (taken && now - quietSince >= stableFor.toNanos()) {
                    return new Settled<>(Duration.ofNanos(quietSince - started), reading);
                }
            } else {
                quietSince = null;
                reading = null;
                taken = false;
                lastReason = reason;
            }
            long pause = Duration.ofSeconds(1).toNanos();
            if (quietSince != null && !taken) {
                pause = Math.max(0, Math.min(pause, quietSince + readAfter.toNanos() - System.nanoTime()));
            }
            sleep(Duration.ofNanos(pause));
        }
        throw new IllegalStateException("Cannot settle namespace " + namespace + " within " + timeout + ": " + lastReason);
    }

    /** Why the namespace is not settled, or null when it is. */
    static String busy(BenchContext context, String namespace, List<String> tables, boolean idleGovernor) {
        Map<String, CryoApi.Graded> grades = context.api().grades(namespace);
        for (String name : tables) {
            Table table = context.lakehouse().load(namespace, name, false);
            Long current = table.currentSnapshot() == null ? null : table.currentSnapshot().snapshotId();
            CryoApi.Graded graded = grades.get(context.lakehouse().id(namespace, name).toString());
            if (graded == null) {
                return name + " has no grade yet";
            }
            if (current != null && !current.equals(graded.snapshotId())) {
                return name + " is graded at snapshot " + graded.snapshotId() + ", current is " + current;
            }
        }
        if (!idleGovernor) {
            return null;
        }
        String prefix = context.lakehouse().catalogName() + "." + namespace + ".";
        if (context.api().queue().contains(prefix)) {
            return "the governor's queue holds a job of " + namespace;
        }
        Set<String> finished = new HashSet<>();
        context.tap().events(JobFinished.class, job -> job.table().toString().startsWith(prefix))
                .forEach(job -> finished.add(job.jobId()));
        for (JobAdmitted admitted : context.tap().events(JobAdmitted.class,
                job -> job.table().toString().startsWith(prefix))) {
            if (!finished.contains(admitted.jobId())) {
                return "job " + admitted.jobId() + " of " + admitted.table() + " is running";
            }
        }
        return null;
    }

    public static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted", e);
        }
    }
}
