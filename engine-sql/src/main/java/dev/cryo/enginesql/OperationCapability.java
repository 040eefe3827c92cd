package dev.cryo.enginesql;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.Operation;

import static java.util.Objects.requireNonNull;

/**
 * What one engine declares for one operation.
 *
 * @param engine the engine
 * @param operation the operation
 * @param level whether it can, and how directly
 * @param how the statement or procedure it uses, or why it cannot
 */
public record OperationCapability(Engine engine, Operation operation, Level level, String how) {

    public enum Level {
        /** The engine has a procedure for the operation. */
        NATIVE_PROCEDURE,
        /** The engine does the operation's work through another procedure (Trino: convert_deletes by optimize). */
        THROUGH_ANOTHER_PROCEDURE,
        /** The engine cannot do it: the operation goes to the next engine of the policy. */
        NOT_AVAILABLE
    }

    public OperationCapability {
        requireNonNull(engine, "engine is null");
        requireNonNull(operation, "operation is null");
        requireNonNull(level, "level is null");
        requireNonNull(how, "how is null");
    }

    public boolean isAvailable() {
        return level != Level.NOT_AVAILABLE;
    }
}
