package dev.cryo.executor.engine;

import dev.cryo.contracts.Operation;

import static java.util.Objects.requireNonNull;

/**
 * One unit of commit and resumption in a job: a chunk of a partition-scoped operation
 * ({@code optimize:3}) or a whole-table operation ({@code expire_snapshots}). Its text form is
 * the {@code cryo.chunk} property of the snapshot that committed it.
 */
public record StepKey(Operation operation, Integer chunkIndex) {

    public StepKey {
        requireNonNull(operation, "operation is null");
        if (operation.scope() == Operation.Scope.PARTITIONS && chunkIndex == null) {
            throw new IllegalArgumentException("Cannot name a step of " + operation + ": it needs a chunk index");
        }
        if (operation.scope() == Operation.Scope.TABLE && chunkIndex != null) {
            throw new IllegalArgumentException("Cannot name a step of " + operation + ": it works on the whole table");
        }
        if (chunkIndex != null && chunkIndex < 0) {
            throw new IllegalArgumentException("Cannot name a step of " + operation + ": chunk index is negative");
        }
    }

    public static StepKey chunk(Operation operation, int index) {
        return new StepKey(operation, index);
    }

    public static StepKey table(Operation operation) {
        return new StepKey(operation, null);
    }

    /** Parses the text form; throws IllegalArgumentException naming the text when it is not one. */
    public static StepKey parse(String text) {
        requireNonNull(text, "text is null");
        int colon = text.indexOf(':');
        try {
            if (colon < 0) {
                return table(Operation.fromId(text));
            }
            return chunk(Operation.fromId(text.substring(0, colon)), Integer.parseInt(text.substring(colon + 1)));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Cannot parse step '" + text + "': " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return chunkIndex == null ? operation.id() : operation.id() + ":" + chunkIndex;
    }
}
