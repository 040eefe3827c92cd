package dev.cryo.executor.engine;

import dev.cryo.contracts.Operation;

import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * What an engine can run.
 *
 * @param operations the operations it runs
 * @param transforms the partition transforms whose predicates it can address
 *                   ({@code identity}, {@code year}, {@code month}, {@code day}, {@code hour}, {@code bucket},
 *                   {@code truncate}, {@code void})
 */
public record EngineCapabilities(Set<Operation> operations, Set<String> transforms) {

    public EngineCapabilities {
        operations = Set.copyOf(requireNonNull(operations, "operations is null"));
        transforms = Set.copyOf(requireNonNull(transforms, "transforms is null"));
    }

    public boolean supports(Operation operation) {
        return operations.contains(operation);
    }

    /** Whether it can address a transform written as Iceberg prints it, e.g. {@code bucket[16]}. */
    public boolean supportsTransform(String transform) {
        int bracket = transform.indexOf('[');
        return transforms.contains(bracket < 0 ? transform : transform.substring(0, bracket));
    }
}
