package dev.cryo.executor.engine;

import dev.cryo.contracts.event.FileCounts;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * What a step did.
 *
 * @param before files it replaced or examined
 * @param after files it wrote
 * @param committedSnapshotId the snapshot it committed (null: nothing to commit, or an operation without snapshots)
 * @param retries commit retries after conflicts with concurrent writers
 * @param message what happened, for people
 * @param files files it names for people (e.g. the orphans a dry run found); may be empty
 * @param queryId the engine's query ids, comma-separated, in the order the statements ran (null: native engine)
 * @param changed whether it changed the table (null: the engine cannot tell); false is a no-op
 */
public record StepResult(FileCounts before, FileCounts after, Long committedSnapshotId, int retries, String message,
                         List<String> files, String queryId, Boolean changed) {

    public StepResult {
        requireNonNull(before, "before is null");
        requireNonNull(after, "after is null");
        requireNonNull(message, "message is null");
        files = List.copyOf(requireNonNull(files, "files is null"));
    }

    /**
     * A result that changed the table if it committed a snapshot; operations that change a table
     * without a snapshot (expiry, orphan removal, statistics) say so with {@link #withChanged}.
     */
    public StepResult(FileCounts before, FileCounts after, Long committedSnapshotId, int retries, String message,
                      List<String> files, String queryId) {
        this(before, after, committedSnapshotId, retries, message, files, queryId, committedSnapshotId != null ? Boolean.TRUE : null);
    }

    /** A result of the native engine, which runs no query. */
    public StepResult(FileCounts before, FileCounts after, Long committedSnapshotId, int retries, String message,
                      List<String> files) {
        this(before, after, committedSnapshotId, retries, message, files, null);
    }

    /** The same result, saying whether it changed the table (null: unknown). */
    public StepResult withChanged(Boolean value) {
        return new StepResult(before, after, committedSnapshotId, retries, message, files, queryId, value);
    }

    /** A step that found nothing to do: a no-op. */
    public static StepResult nothingToDo(String message) {
        return new StepResult(FileCounts.ZERO, FileCounts.ZERO, null, 0, message, List.of()).withChanged(false);
    }
}
