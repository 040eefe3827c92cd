package dev.cryo.executor.iceberg;

import dev.cryo.contracts.event.FileCounts;
import dev.cryo.executor.ExecutorErrorCode;
import dev.cryo.executor.engine.StepResult;
import dev.cryo.platform.error.CryoException;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.util.PropertyUtil;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * expire_snapshots: drops snapshots older than the retention beyond the newest {@code retainLast},
 * and the files only they referenced. Iceberg keeps every snapshot a branch or tag still needs.
 * A table with {@code gc.enabled=false} (files shared with other tables) is refused.
 */
final class SnapshotExpirer {

    private final Table table;

    SnapshotExpirer(Table table) {
        this.table = table;
    }

    StepResult expire(Duration retention, int retainLast, Instant now) {
        table.refresh();
        requireGarbageCollection(table, "expire snapshots");
        int before = size(table.snapshots());
        AtomicLong dataFiles = new AtomicLong();
        AtomicLong deleteFiles = new AtomicLong();
        AtomicLong metadataFiles = new AtomicLong();
        table.expireSnapshots()
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
                })
                .commit();
        table.refresh();
        int after = size(table.snapshots());
        return new StepResult(new FileCounts(dataFiles.get(), 0, deleteFiles.get(), 0), FileCounts.ZERO, null, 0,
                "expired " + (before - after) + " of " + before + " snapshots (retention " + retention + ", retain last "
                        + retainLast + "), deleted " + dataFiles.get() + " data, " + deleteFiles.get() + " delete and "
                        + metadataFiles.get() + " metadata files only they referenced", List.of());
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
