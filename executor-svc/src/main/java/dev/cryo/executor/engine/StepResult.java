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
 */
public record StepResult(FileCounts before, FileCounts after, Long committedSnapshotId, int retries, String message,
                         List<String> files) {

    public StepResult {
        requireNonNull(before, "before is null");
        requireNonNull(after, "after is null");
        requireNonNull(message, "message is null");
        files = List.copyOf(requireNonNull(files, "files is null"));
    }

    public static StepResult nothingToDo(String message) {
        return new StepResult(FileCounts.ZERO, FileCounts.ZERO, null, 0, message, List.of());
    }
}
