package dev.cryo.contracts.event;

import dev.cryo.contracts.Check;
import dev.cryo.contracts.Operation;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * One operation of a plan.
 *
 * @param operation the operation
 * @param reasons the checks whose deductions asked for it
 * @param chunks for partition-scoped operations, the chunks in execution order (empty for whole-table operations)
 * @param parameters parameters from the table's policy
 * @param estimate the sum of the chunks' estimates
 */
public record PlannedOperation(Operation operation, List<Check> reasons, List<Chunk> chunks,
                               OperationParameters parameters, Estimate estimate) {
    public PlannedOperation {
        requireNonNull(operation, "operation is null");
        reasons = Require.list(reasons, "reasons");
        chunks = Require.list(chunks, "chunks");
        if (operation.scope() == Operation.Scope.TABLE && !chunks.isEmpty()) {
            throw new IllegalArgumentException(operation + " works on the whole table and takes no chunks");
        }
        for (int i = 0; i < chunks.size(); i++) {
            if (chunks.get(i).index() != i) {
                throw new IllegalArgumentException(operation + " chunk indexes must be 0.." + (chunks.size() - 1)
                        + " in order, found " + chunks.get(i).index() + " at position " + i);
            }
        }
        parameters = Require.orDefault(parameters, OperationParameters.NONE);
        estimate = Require.orDefault(estimate, Estimate.ZERO);
    }
}
