package dev.cryo.executor.iceberg;

import dev.cryo.contracts.TableId;
import dev.cryo.executor.ExecutorErrorCode;
import dev.cryo.executor.engine.CommitTags;
import dev.cryo.executor.engine.EngineStepLog;
import dev.cryo.executor.engine.RunningJobs;
import dev.cryo.platform.error.CryoException;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.util.PropertyUtil;
import org.apache.iceberg.util.SnapshotUtil;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * The guards every expiry passes before it runs, on every engine: the table allows garbage
 * collection, no snapshot a branch or tag references would go, and no snapshot a running job
 * started from would go — the job's own start (the rollback point of its rewrites until a later
 * job) and the snapshot each other job running on the table read when it started.
 */
public final class ExpiryGuard {

    private final RunningJobs runningJobs;
    private final EngineStepLog stepLog;

    public ExpiryGuard(RunningJobs runningJobs, EngineStepLog stepLog) {
        this.runningJobs = requireNonNull(runningJobs, "runningJobs is null");
        this.stepLog = requireNonNull(stepLog, "stepLog is null");
    }

    /**
     * What an expiry of the table by this job may do: the retention, widened so that every
     * protected snapshot is younger than it, and what was protected, for the step's message.
     *
     * @throws CryoException REFUSED_BY_TABLE_SETTINGS when garbage collection is disabled or a
     *                       branch or tag's snapshot would go
     */
    public Expiry check(Table table, TableId tableId, String jobId, Duration retention, int retainLast, Instant now) {
        requireGarbageCollection(table, "expire snapshots");
        Map<Long, String> protectedSnapshots = protectedSnapshots(table, tableId, jobId);
        long cutoff = now.minus(retention).toEpochMilli();
        for (Long id : protectedSnapshots.keySet()) {
            cutoff = Math.min(cutoff, table.snapshot(id).timestampMillis());
        }
        List<Snapshot> expiring = table.expireSnapshots().expireOlderThan(cutoff).retainLast(retainLast).apply();
        requireNoReferencedSnapshot(table, expiring);
        for (Snapshot snapshot : expiring) {
            if (protectedSnapshots.containsKey(snapshot.snapshotId())) {
                // Iceberg keeps every snapshot at or after the cutoff; this is the last line of defence.
                throw new CryoException(ExecutorErrorCode.ENGINE_FAILURE, "Cannot expire snapshots of " + table.name()
                        + ": snapshot " + snapshot.snapshotId() + " would go although " + protectedSnapshots.get(snapshot.snapshotId()));
            }
        }
        Duration effective = Duration.ofMillis(Math.max(0, now.toEpochMilli() - cutoff));
        return new Expiry(effective.compareTo(retention) > 0 ? effective : retention, cutoff, retainLast,
                expiring.size(), protectedSnapshots);
    }

    private Map<Long, String> protectedSnapshots(Table table, TableId tableId, String jobId) {
        Map<Long, String> protectedSnapshots = new LinkedHashMap<>();
        Long ownStart = ownStart(table, jobId);
        if (ownStart != null && table.snapshot(ownStart) != null) {
            protectedSnapshots.put(ownStart, "job " + jobId + " started from it");
        }
        for (Instant started : runningJobs.othersStarted(tableId, jobId)) {
            Long id = currentAt(table, started.toEpochMilli());
            if (id != null) {
                protectedSnapshots.putIfAbsent(id, "a job running on the table since " + started + " started from it");
            }
        }
        return protectedSnapshots;
    }

    /**
     * The snapshot this job started from: the earliest start an engine step recorded, or the
     * snapshot just before the job's first native commit (what a rollback of the job goes back
     * to); null when the job committed nothing and ran no engine step.
     */
    private Long ownStart(Table table, String jobId) {
        Long start = null;
        long startTime = Long.MAX_VALUE;
        for (EngineStepLog.StartedStep step : stepLog.started(jobId)) {
            Snapshot snapshot = step.startSnapshotId() == null ? null : table.snapshot(step.startSnapshotId());
            if (snapshot != null && snapshot.timestampMillis() < startTime) {
                start = snapshot.snapshotId();
                startTime = snapshot.timestampMillis();
            }
        }
        for (Snapshot snapshot : table.snapshots()) {
            if (snapshot.summary() != null && jobId.equals(snapshot.summary().get(CommitTags.JOB_ID))
                    && snapshot.parentId() != null && table.snapshot(snapshot.parentId()) != null
                    && table.snapshot(snapshot.parentId()).timestampMillis() < startTime) {
                start = snapshot.parentId();
                startTime = table.snapshot(snapshot.parentId()).timestampMillis();
            }
        }
        return start;
    }

    private static Long currentAt(Table table, long millis) {
        try {
            return SnapshotUtil.snapshotIdAsOfTime(table, millis);
        } catch (IllegalArgumentException e) {
            return null; // the table had no snapshot then: the job started from an empty table
        }
    }

    static void requireGarbageCollection(Table table, String action) {
        if (!PropertyUtil.propertyAsBoolean(table.properties(), TableProperties.GC_ENABLED,
                TableProperties.GC_ENABLED_DEFAULT)) {
            throw new CryoException(ExecutorErrorCode.REFUSED_BY_TABLE_SETTINGS, "Cannot " + action + " of "
                    + table.name() + ": the table sets " + TableProperties.GC_ENABLED + "=false (its files may be shared"
                    + " with other tables); set it to true if Cryo may delete files");
        }
    }

    /** Refuses a table with {@code gc.enabled=false}, before any engine is asked to delete its files. */
    public static void requireGarbageCollection(Table table, dev.cryo.contracts.Operation operation) {
        requireGarbageCollection(table, operation == dev.cryo.contracts.Operation.EXPIRE_SNAPSHOTS ? "expire snapshots"
                : "remove orphan files");
    }

    private static void requireNoReferencedSnapshot(Table table, List<Snapshot> expiring) {
        Map<Long, String> referencedBy = new LinkedHashMap<>();
        table.refs().forEach((name, ref) -> referencedBy.putIfAbsent(ref.snapshotId(), (ref.isBranch() ? "branch '" : "tag '")
                + name + "'" + (ref.maxRefAgeMs() == null ? "" : " (its max-ref-age-ms of " + ref.maxRefAgeMs() + " ms has passed)")));
        for (Snapshot snapshot : expiring) {
            String reference = referencedBy.get(snapshot.snapshotId());
            if (reference != null) {
                throw new CryoException(ExecutorErrorCode.REFUSED_BY_TABLE_SETTINGS, "Cannot expire snapshots of "
                        + table.name() + ": snapshot " + snapshot.snapshotId() + " is referenced by " + reference
                        + ", and Cryo never expires a snapshot a branch or tag references; remove the ref's max-ref-age-ms"
                        + " (ALTER TABLE … REPLACE TAG/BRANCH … RETAIN) or drop the ref yourself if it may go");
            }
        }
    }

    /**
     * What an expiry may do.
     *
     * @param retention the retention to run with: the requested one, or longer to keep a protected snapshot
     * @param expireOlderThanMillis snapshots older than this may go
     * @param retainLast snapshots always kept
     * @param expiring how many snapshots would go now
     * @param protectedSnapshots snapshots kept whatever their age, with why
     */
    public record Expiry(Duration retention, long expireOlderThanMillis, int retainLast, int expiring,
                         Map<Long, String> protectedSnapshots) {
        public Expiry {
            requireNonNull(retention, "retention is null");
            protectedSnapshots = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(protectedSnapshots));
        }

        /**
         * The retention to give an engine that measures it from its own clock when its statement runs
         * (Trino's {@code retention_threshold}): the time between this check and then, and any skew
         * between the clocks, would otherwise let a protected snapshot fall out of the retention. With
         * nothing protected, the retention as checked.
         */
        public Duration retentionWithMargin(Duration margin) {
            return protectedSnapshots.isEmpty() ? retention : retention.plus(margin);
        }

        /** The protected snapshots for a step's message; empty when none. */
        public String describeProtected() {
            if (protectedSnapshots.isEmpty()) {
                return "";
            }
            StringBuilder text = new StringBuilder("; kept ");
            protectedSnapshots.forEach((id, why) -> text.append("snapshot ").append(id).append(" (").append(why).append("), "));
            text.setLength(text.length() - 2);
            return text.toString();
        }
    }
}
