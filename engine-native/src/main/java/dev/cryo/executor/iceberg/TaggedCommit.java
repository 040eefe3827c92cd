package dev.cryo.executor.iceberg;

import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.jboss.logging.Logger;

import java.util.Map;

/**
 * A chunk's commit found by the tags it carries: the snapshot just committed, or, after a commit
 * whose outcome is unknown ({@link dev.cryo.iceberg.commit.CommitOutcome#UNKNOWN}), the proof that
 * it landed.
 */
final class TaggedCommit {

    private static final Logger LOG = Logger.getLogger(TaggedCommit.class);

    /** Reads of the table after an unknown commit outcome before the attempt gives up and keeps its files. */
    private static final int RECONCILE_LOOKS = 3;

    private final Table table;
    private final RewriteSettings settings;
    private final Map<String, String> tags;

    TaggedCommit(Table table, RewriteSettings settings, Map<String, String> tags) {
        this.table = table;
        this.settings = settings;
        this.tags = tags;
    }

    /** The newest snapshot of the current lineage that carries the chunk's tags, or null. */
    Long snapshot() {
        for (Snapshot snapshot = table.currentSnapshot(); snapshot != null;
             snapshot = snapshot.parentId() == null ? null : table.snapshot(snapshot.parentId())) {
            Map<String, String> summary = snapshot.summary();
            if (summary != null && tags.entrySet().stream().allMatch(tag -> tag.getValue().equals(summary.get(tag.getKey())))) {
                return snapshot.snapshotId();
            }
        }
        return null;
    }

    /**
     * After a commit whose outcome is unknown: the job's tagged snapshot if the table's history now
     * shows it, else null (also when the table cannot be read after a few tries: a catalog whose
     * connections were just lost answers again once its pool has reconnected). Never deletes anything.
     */
    Long reconcile(PartitionScope scope, RuntimeException failure) {
        for (int look = 1; ; look++) {
            try {
                table.refresh();
                Long landed = snapshot();
                if (landed != null) {
                    LOG.warnf("%s: the commit of the rewrite of %s reported %s, but its snapshot %d is in the table's"
                            + " history: it committed", table.name(), scope, describe(failure), landed);
                }
                return landed;
            } catch (RuntimeException e) {
                if (look >= RECONCILE_LOOKS || Thread.currentThread().isInterrupted()) {
                    LOG.warnf("%s: cannot read the table after the rewrite of %s failed to report its commit (%s): %s",
                            table.name(), scope, describe(failure), describe(e));
                    return null;
                }
                ChunkRewriter.sleep(settings.backoff().delay(look));
            }
        }
    }

    static String describe(Throwable failure) {
        return failure.getClass().getSimpleName() + ": " + failure.getMessage();
    }
}
