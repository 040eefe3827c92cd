package dev.cryo.executor.engine;

import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.contracts.event.PartitionPredicate;
import dev.cryo.executor.domain.StepKey;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * One step to run.
 *
 * @param table the table
 * @param jobId the job, tagged on every snapshot the step commits ({@code cryo.job-id})
 * @param step the step, tagged as {@code cryo.chunk}
 * @param partitions the chunk's partitions (empty for whole-table operations)
 * @param parameters the operation's parameters from the table's policy
 */
public record StepRequest(TableId table, String jobId, StepKey step, List<PartitionPredicate> partitions,
                          OperationParameters parameters) {

    public StepRequest {
        requireNonNull(table, "table is null");
        requireNonNull(jobId, "jobId is null");
        requireNonNull(step, "step is null");
        partitions = List.copyOf(requireNonNull(partitions, "partitions is null"));
        requireNonNull(parameters, "parameters is null");
    }
}
