package dev.cryo.executor.domain;

import dev.cryo.contracts.Operation;
import dev.cryo.contracts.event.Chunk;
import dev.cryo.contracts.event.MaintenancePlanned;
import dev.cryo.contracts.event.PlannedOperation;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.contracts.event.PartitionPredicate;
import dev.cryo.executor.engine.StepKey;

import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/** A plan unrolled into the steps a job commits one by one, in the fixed order. */
public final class JobSteps {

    /** One step with what it needs to run. */
    public record PlannedStep(StepKey key, List<PartitionPredicate> partitions, OperationParameters parameters) {
        public PlannedStep {
            requireNonNull(key, "key is null");
            partitions = List.copyOf(partitions);
            requireNonNull(parameters, "parameters is null");
        }
    }

    /**
     * The steps of a plan: every chunk of a partition-scoped operation, then each whole-table
     * operation, in the order of {@link Operation} whatever order the plan lists them in.
     */
    public static List<PlannedStep> of(MaintenancePlanned plan) {
        List<PlannedOperation> operations = new ArrayList<>(plan.operations());
        operations.sort((a, b) -> Integer.compare(a.operation().ordinal(), b.operation().ordinal()));
        List<PlannedStep> steps = new ArrayList<>();
        for (PlannedOperation operation : operations) {
            if (operation.operation().scope() == Operation.Scope.TABLE) {
                steps.add(new PlannedStep(StepKey.table(operation.operation()), List.of(), operation.parameters()));
                continue;
            }
            for (Chunk chunk : operation.chunks()) {
                steps.add(new PlannedStep(StepKey.chunk(operation.operation(), chunk.index()), chunk.partitions(),
                        operation.parameters()));
            }
        }
        return List.copyOf(steps);
    }

    /** Chunks of partition-scoped operations in the plan: the denominator of a job's progress. */
    public static int chunksTotal(MaintenancePlanned plan) {
        return plan.operations().stream().mapToInt(operation -> operation.chunks().size()).sum();
    }

    private JobSteps() {
    }
}
