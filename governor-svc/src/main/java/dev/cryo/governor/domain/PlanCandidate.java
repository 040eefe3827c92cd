package dev.cryo.governor.domain;

import dev.cryo.contracts.TableId;

import java.time.Instant;

import static java.util.Objects.requireNonNull;

/**
 * A plan waiting for admission, with what its priority depends on.
 *
 * @param planId the plan
 * @param table its table
 * @param score the table's score when planned (lower is worse, and goes first)
 * @param plannedAt when it was planned (older goes first among equal scores)
 * @param arrival the order in which the governor received it, the last tie-breaker
 */
public record PlanCandidate(String planId, TableId table, int score, Instant plannedAt, long arrival) {
    public PlanCandidate {
        requireNonNull(planId, "planId is null");
        requireNonNull(table, "table is null");
        requireNonNull(plannedAt, "plannedAt is null");
    }
}
