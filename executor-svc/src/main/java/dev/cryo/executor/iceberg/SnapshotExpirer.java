package dev.cryo.executor.iceberg;

import dev.cryo.contracts.event.FileCounts;
import dev.cryo.executor.ExecutorErrorCode;
import dev.cryo.executor.engine.StepResult;
import dev.cryo.platform.error.CryoException;
import org.apache.iceberg.ExpireSnapshots;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.util.PropertyUtil;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * expire_snapshots: drops snapshots older than the retention beyond the newest {@code retainLast},
 * and the files only they referenced. A snapshot a branch or tag references is never expired: such
 * an expiry is refused as a whole, naming the setting. A table with {@code gc.enabled=false} (files
 * shared with other tables) is refused.
 *
 * <p>The snapshot the job itself started from is not protected: in the fixed order every rewrite of
 * the job has committed before expire_snapshots runs, so nothing of the job still reads it, and the
 * governor's table lock keeps every other Cryo job off the table. Protecting it would refuse the
 * expiry of every quiet table whose last write is older than the retention.
 */
final class SnapshotExpirer {

    private final Table table;

    SnapshotExpirer(Table table) {
        this.table = table;
    }

    /**
     * Expires what the retention allows, unless that would drop a snapshot that a branch or tag
     * references (Iceberg drops a ref whose {@code max-ref-age-ms} has passed, and its snapshot with
     * it): then nothing is expired and the message names the setting that asked for it.
     */
    StepResult expire(Duration retention, int retainLast, Instant now) {
        table.refresh();
        requireGarbageCollection(table, "expire snapshots");
        int before = size(table.snapshots());
        AtomicLong dataFiles = new AtomicLong();
        AtomicLong deleteFiles = new AtomicLong();
        AtomicLong metadataFiles = new AtomicLong();
        ExpireSnapshots expiry = table.expireSnapshots()
                .expireOlderThan(now.minus(retention).toEpochMilli())
                .retainLast(retainLast)
                .cleanExpiredFiles(true)
                .deleteWith(location -> {
                    String name = location.substring(location.lastIndexOf('/') + 1);
                    if (location.contains("/metadata/")) {
                        metadataFiles.incrementAndGet();
                    } else if (name.contains("-deletes") || name.endsWith(".puffin")) {
                        deleteFiles.incrementAndGet();
                    } else {
                        dataFiles.incrementAndGet();
                    }
                    table.io().deleteFile(location);
                });
        requireNoReferencedSnapshot(expiry.apply());
        expiry.commit();
        table.refresh();
        int after = size(table.snapshots());
        return new StepResult(new FileCounts(dataFiles.get(), 0, deleteFiles.get(), 0), FileCounts.ZERO, null, 0,
                "expired " + (before - after) + " of " + before + " snapshots (retention " + retention + ", retain last "
                        + retainLast + "), deleted " + dataFiles.get() + " data, " + deleteFiles.get() + " delete and "
                        + metadataFiles.get() + " metadata files only they referenced", List.of());
    }

    private void requireNoReferencedSnapshot(List<Snapshot> expiring) {
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

    static void requireGarbageCollection(Table table, String action) {
        if (!PropertyUtil.propertyAsBoolean(table.properties(), TableProperties.GC_ENABLED,
                TableProperties.GC_ENABLED_DEFAULT)) {
            throw new CryoException(ExecutorErrorCode.REFUSED_BY_TABLE_SETTINGS, "Cannot " + action + " of "
                    + table.name() + ": the table sets " + TableProperties.GC_ENABLED + "=false (its files may be shared"
                    + " with other tables); set it to true if Cryo may delete files");
        }
    }

    private static int size(Iterable<?> values) {
        int count = 0;
        for (Object ignored : values) {
            count++;
        }
        return count;
    }
}
