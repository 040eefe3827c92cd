package dev.cryo.bench.harness;

import dev.cryo.contracts.event.JobAdmitted;
import dev.cryo.contracts.event.JobFinished;
import org.apache.iceberg.Table;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Waits until Cryo has nothing left to do for a namespace: every table graded at its current
 * snapshot, nothing queued or running in the governor, no admitted job without its result, and
 * all of that unchanged for the stability window (PROTOCOL.md: 10 s).
 */
public final class Settle {

    public static final Duration STABLE_FOR = Duration.ofSeconds(10);

    private Settle() {
    }

    /** Returns the time from the call until the first moment of the stable window. */
    public static Duration await(BenchContext context, String namespace, List<String> tables, Duration timeout) {
        return await(context, namespace, tables, timeout, true);
    }

    /**
     * For a namespace that the governor pauses (a contender's copy): only waits until every table
     * is graded at its current snapshot; its plans stay deferred in the queue by design.
     */
    public static Duration awaitGraded(BenchContext context, String namespace, List<String> tables, Duration timeout) {
        // nothing writes to or maintains a paused copy any more, so a grade at its current snapshot is final: no
        // stability window needed
        return await(context, namespace, tables, timeout, false, Duration.ZERO);
    }

    private static Duration await(BenchContext context, String namespace, List<String> tables, Duration timeout,
                                  boolean idleGovernor) {
        return await(context, namespace, tables, timeout, idleGovernor, STABLE_FOR);
    }

    private static Duration await(BenchContext context, String namespace, List<String> tables, Duration timeout,
                                  boolean idleGovernor, Duration stableFor) {
        long started = System.nanoTime();
        long deadline = started + timeout.toNanos();
        Long quietSince = null;
        String lastReason = "not checked yet";
        while (System.nanoTime() < deadline) {
            String reason = busy(context, namespace, tables, idleGovernor);
            long now = System.nanoTime();
            if (reason == null) {
                if (quietSince == null) {
                    quietSince = now;
                }
                if (now - quietSince >= stableFor.toNanos()) {
                    return Duration.ofNanos(quietSince - started);
                }
            } else {
                quietSince = null;
                lastReason = reason;
            }
            sleep(Duration.ofSeconds(1));
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
