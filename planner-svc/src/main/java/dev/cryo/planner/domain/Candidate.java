package dev.cryo.planner.domain;

import dev.cryo.contracts.event.Estimate;
import dev.cryo.contracts.event.PartitionStats;

import static java.util.Objects.requireNonNull;

/**
 * A partition an operation would rewrite, with what rewriting it costs.
 *
 * @param partition the partition's statistics from the stored scan
 * @param estimate what rewriting it reads and writes; {@code inputBytes} is what counts against the chunk budget
 */
record Candidate(PartitionStats partition, Estimate estimate) {
    Candidate {
        requireNonNull(partition, "partition is null");
        requireNonNull(estimate, "estimate is null");
    }

    long inputBytes() {
        return estimate.inputBytes();
    }
}
