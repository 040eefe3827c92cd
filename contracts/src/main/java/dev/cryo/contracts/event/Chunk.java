package dev.cryo.contracts.event;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Partitions rewritten and committed together. A chunk is the unit of commit and of
 * resumption: a re-run job skips chunks already committed.
 */
public record Chunk(int index, List<PartitionPredicate> partitions, Estimate estimate) {
    public Chunk {
        Require.nonNegative(index, "index");
        partitions = Require.list(partitions, "partitions");
        if (partitions.isEmpty()) {
            throw new IllegalArgumentException("chunk " + index + " has no partition");
        }
        requireNonNull(estimate, "estimate is null");
    }
}
