package dev.cryo.enginesql;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.Chunk;
import dev.cryo.contracts.event.PlannedOperation;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * Picks the engine for one operation (and chunk): the first engine of the table's policy that
 * can run it. An operation the chosen engine cannot do is routed, never dropped.
 */
public final class EngineRouter {

    private final CapabilityMatrix matrix;

    public EngineRouter(CapabilityMatrix matrix) {
        this.matrix = requireNonNull(matrix, "matrix is null");
    }

    /** The default policy: the chosen engine, then the native one. */
    public static List<Engine> defaultPolicy(Engine chosen) {
        requireNonNull(chosen, "chosen is null");
        return List.copyOf(new LinkedHashSet<>(List.of(chosen, Engine.NATIVE)));
    }

    /**
     * @param formatVersion the table's Iceberg format version: some engines run some operations only up to v2
     * @throws IllegalArgumentException when no engine of the policy can run it (a policy without
     *         the native engine); the message lists every engine's reason
     */
    public Route route(List<Engine> policy, TableId table, int formatVersion, PlannedOperation operation, Chunk chunk) {
        requireNonNull(policy, "policy is null");
        if (policy.isEmpty()) {
            throw new IllegalArgumentException("Cannot route " + operation.operation() + " of " + table
                    + ": the table's engine policy is empty; set it, for example to [trino, native]");
        }
        List<Support.NotSupported> passedOver = new ArrayList<>();
        for (Engine engine : new LinkedHashSet<>(policy)) {
            Support support = matrix.check(engine, table, formatVersion, operation, chunk);
            if (support instanceof Support.Supported supported) {
                return new Route(engine, supported, passedOver);
            }
            passedOver.add((Support.NotSupported) support);
        }
        throw new IllegalArgumentException("Cannot route " + operation.operation() + " of " + table
                + ": no engine of the policy " + policy.stream().map(Engine::id).toList() + " can run it ("
                + passedOver.stream().map(skip -> skip.engine().id() + ": " + skip.reason()).collect(Collectors.joining("; "))
                + "); add native to the table's engine policy");
    }
}
