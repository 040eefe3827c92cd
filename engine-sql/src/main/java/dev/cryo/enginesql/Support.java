package dev.cryo.enginesql;

import dev.cryo.contracts.Engine;

import java.util.List;

import static java.util.Objects.requireNonNull;

/** Whether an engine can run one planned operation (and chunk), as the capability matrix judges it. */
public sealed interface Support {

    Engine engine();

    /**
     * @param statements the statements it would run (empty for the native engine, which runs no SQL)
     */
    record Supported(Engine engine, String how, List<String> statements) implements Support {
        public Supported {
            requireNonNull(engine, "engine is null");
            requireNonNull(how, "how is null");
            statements = List.copyOf(requireNonNull(statements, "statements is null"));
        }
    }

    record NotSupported(Engine engine, Limitation limitation, String reason) implements Support {
        public NotSupported {
            requireNonNull(engine, "engine is null");
            requireNonNull(limitation, "limitation is null");
            requireNonNull(reason, "reason is null");
        }
    }
}
