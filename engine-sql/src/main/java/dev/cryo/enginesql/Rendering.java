package dev.cryo.enginesql;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.Operation;

import java.util.List;

import static java.util.Objects.requireNonNull;

/** What a renderer made of one operation (and chunk): statements to run, or why this engine cannot. */
public sealed interface Rendering {

    Engine engine();

    /**
     * Statements to run in order, on one connection or session: a chunk's statements commit as
     * one unit on Trino (optimize is all-or-nothing) and per file group on Spark (partial progress).
     */
    record Statements(Engine engine, Operation operation, List<String> statements) implements Rendering {
        public Statements {
            requireNonNull(engine, "engine is null");
            requireNonNull(operation, "operation is null");
            statements = List.copyOf(requireNonNull(statements, "statements is null"));
            if (statements.isEmpty()) {
                throw new IllegalArgumentException("a rendering needs at least one statement");
            }
        }
    }

    /**
     * This engine cannot do it, for a reason that another engine may not share: the executor
     * routes the operation or chunk to the next engine of the table's policy and reports why.
     */
    record NotExpressible(Engine engine, Operation operation, Limitation limitation, String reason) implements Rendering {
        public NotExpressible {
            requireNonNull(engine, "engine is null");
            requireNonNull(operation, "operation is null");
            requireNonNull(limitation, "limitation is null");
            requireNonNull(reason, "reason is null");
        }
    }
}
