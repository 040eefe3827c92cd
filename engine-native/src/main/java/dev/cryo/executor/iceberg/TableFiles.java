package dev.cryo.executor.iceberg;

import dev.cryo.executor.ExecutorErrorCode;
import dev.cryo.platform.error.CryoException;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.OutputFileFactory;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;

/** The native rewrite's dealings with a table's storage that its writing and committing sides share. */
final class TableFiles {

    private static final Logger LOG = Logger.getLogger(TableFiles.class);

    private static final AtomicInteger TASK_IDS = new AtomicInteger();

    private TableFiles() {
    }

    /** A factory of new Parquet file names under the table's data location, unique across the process. */
    static OutputFileFactory outputFiles(Table table, int specId, String operationId) {
        return OutputFileFactory.builderFor(table, specId, TASK_IDS.incrementAndGet())
                .format(FileFormat.PARQUET).operationId(operationId).build();
    }

    /** Deletes files that were written but never committed; a failure only leaves an orphan behind. */
    static void deleteQuietly(Table table, List<? extends ContentFile<?>> files) {
        for (ContentFile<?> file : files) {
            deleteQuietly(table, file.location());
        }
    }

    /** Deletes groups of files that were written but never committed. */
    static void deleteAllQuietly(Table table, List<? extends List<? extends ContentFile<?>>> groups) {
        groups.forEach(files -> deleteQuietly(table, files));
    }

    /** Deletes one file that was written but never committed; a failure only leaves an orphan behind. */
    static void deleteQuietly(Table table, String location) {
        try {
            table.io().deleteFile(location);
        } catch (RuntimeException e) {
            // An uncommitted file left behind is an orphan that remove_orphan_files collects later.
            LOG.warnf("%s: cannot delete uncommitted file %s: %s", table.name(), location, e.getMessage());
        }
    }

    /**
     * Commits {@code update}; a failure {@link dev.cryo.iceberg.commit.CommitOutcome} does not call clean
     * becomes {@link #commitStateUnknown} ({@code kept} says what stays), a clean one is thrown as it is.
     */
    static void commit(Table table, org.apache.iceberg.PendingUpdate<?> update, String action, String kept) {
        try {
            update.commit();
        } catch (RuntimeException e) {
            if (dev.cryo.iceberg.commit.CommitOutcome.of(e).mayCleanUp()) {
                throw e;
            }
            throw commitStateUnknown(table, action, kept, e);
        }
    }

    /**
     * A commit that failed in a way {@link dev.cryo.iceberg.commit.CommitOutcome} does not call clean:
     * it may have landed, so nothing written for it is deleted ({@code kept} says what stays).
     */
    static CryoException commitStateUnknown(Table table, String action, String kept, RuntimeException e) {
        return new CryoException(ExecutorErrorCode.COMMIT_STATE_UNKNOWN, "Cannot tell whether " + action + " of "
                + table.name() + " committed: " + e.getClass().getSimpleName() + ": " + e.getMessage() + "; " + kept
                + ", and the next attempt reads the table's history", e);
    }

    static CryoException storageFailure(Table table, String action, Exception e) {
        return new CryoException(ExecutorErrorCode.STORAGE_FAILURE, "Cannot " + action + " of " + table.name() + ": "
                + e.getMessage(), e);
    }
}
