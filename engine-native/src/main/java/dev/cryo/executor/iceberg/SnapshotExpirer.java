package dev.cryo.executor.iceberg;

import dev.cryo.contracts.event.FileCounts;
import dev.cryo.executor.engine.StepResult;
import org.apache.iceberg.ExpireSnapshots;
import org.apache.iceberg.Table;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * expire_snapshots on the native engine: drops the snapshots {@link ExpiryGuard} allows (older
 * than the retention, beyond the newest {@code retainLast}, none a branch, tag or running job
 * needs) and the files only they referenced.
 */
final class SnapshotExpirer {

    private final Table table;

    SnapshotExpirer(Table table) {
        this.table = table;
    }

    StepResult expire(ExpiryGuard.Expiry allowed) {
        int before = size(table.snapshots());
        AtomicLong dataFiles = new AtomicLong();
        AtomicLong deleteFiles = new AtomicLong();
        AtomicLong metadataFiles = new AtomicLong();
        ExpireSnapshots expiry = table.expireSnapshots()
                .expireOlderThan(allowed.expireOlderThanMillis())
                .retainLast(allowed.retainLast())
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
        // Iceberg deletes expired files only after a commit it saw succeed.
        TableFiles.commit(table, expiry, "the snapshot expiry", "no file was deleted");
        table.refresh();
        int after = size(table.snapshots());
        return new StepResult(new FileCounts(dataFiles.get(), 0, deleteFiles.get(), 0), FileCounts.ZERO, null, 0,
                "expired " + (before - after) + " of " + before + " snapshots (retention " + allowed.retention()
                        + ", retain last " + allowed.retainLast() + allowed.describeProtected() + "), deleted "
                        + dataFiles.get() + " data, " + deleteFiles.get() + " delete and " + metadataFiles.get()
                        + " metadata files only they referenced", List.of()).withChanged(after < before);
    }

    private static int size(Iterable<?> values) {
        int count = 0;
        for (Object ignored : values) {
            count++;
        }
        return count;
    }
}
