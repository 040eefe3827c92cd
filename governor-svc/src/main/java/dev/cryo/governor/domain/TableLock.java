package dev.cryo.governor.domain;

import dev.cryo.contracts.TableId;

import java.time.Instant;

import static java.util.Objects.requireNonNull;

/**
 * A job holds a table: no other job runs on it until the job finishes or its lease runs out.
 *
 * @param table the table
 * @param jobId the job holding it
 * @param planId the job's plan
 * @param leaseExpiresAt the lock lasts until here unless the executor heartbeats
 */
public record TableLock(TableId table, String jobId, String planId, Instant leaseExpiresAt) {
    public TableLock {
        requireNonNull(table, "table is null");
        requireNonNull(jobId, "jobId is null");
        requireNonNull(planId, "planId is null");
        requireNonNull(leaseExpiresAt, "leaseExpiresAt is null");
    }
}
