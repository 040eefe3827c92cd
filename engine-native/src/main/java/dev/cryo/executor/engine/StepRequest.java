package dev.cryo.executor.engine;

import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.Chunk;
import dev.cryo.contracts.event.Estimate;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.contracts.event.PartitionPredicate;
import dev.cryo.contracts.event.PlannedOperation;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * One step to run.
 *
 * @param table the table
 * @param jobId the job, tagged on every snapshot the native engine commits ({@code cryo.job-id})
 * @param step the step, tagged as {@code cryo.chunk}
 * @param partitions the chunk's partitions (empty for whole-table operations)
 * @param parameters the operation's parameters from the table's policy
 * @param statisticsLater whether the job computes statistics after this step: a native rewrite then keeps
 *                        the column sketches of the rows it reads back, so that step need not read them again
 */
public record StepRequest(TableId table, String jobId, StepKey step, List<PartitionPredicate> partitions,
                          OperationParameters parameters, boolean statisticsLater) {

    public StepRequest {
        requireNonNull(table, "table is null");
        requireNonNull(jobId, "jobId is null");
        requireNonNull(step, "step is null");
        partitions = List.copyOf(requireNonNull(partitions, "partitions is null"));
        requireNonNull(parameters, "parameters is null");
    }

    /** A step of a job that computes no statistics after it. */
    public StepRequest(TableId table, String jobId, StepKey step, List<PartitionPredicate> partitions,
                       OperationParameters parameters) {
        this(table, jobId, step, partitions, parameters, false);
    }

    /** The same step with other parameters (the ones resolved from the table and the executor's defaults). */
    public StepRequest withParameters(OperationParameters resolved) {
        return new StepRequest(table, jobId, step, partitions, resolved, statisticsLater);
    }

    /** The step's chunk as the plan had it, or null for a whole-table operation: what the SQL renderers take. */
    public Chunk chunk() {
        if (step.operation().scope() == Operation.Scope.TABLE) {
            return null;
        }
        return new Chunk(step.chunkIndex(), partitions, Estimate.ZERO);
    }

    /** The step's operation as a plan holds it, with this request's parameters. */
    public PlannedOperation plannedOperation() {
        Chunk chunk = chunk();
        // Chunk indexes of a planned operation count from 0; the renderers read only the chunk they are given.
        List<Chunk> chunks = chunk == null ? List.of() : List.of(new Chunk(0, chunk.partitions(), chunk.estimate()));
        return new PlannedOperation(step.operation(), List.of(), chunks, parameters, Estimate.ZERO);
    }
}
