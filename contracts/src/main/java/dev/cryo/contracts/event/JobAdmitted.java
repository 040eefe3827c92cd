package dev.cryo.contracts.event;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.TableId;

import java.time.Instant;

import static java.util.Objects.requireNonNull;

/**
 * The governor admitted a plan: one executor of the group runs it. The plan travels with the
 * job, so an executor needs nothing else to start.
 *
 * @param jobId the job's id (also the Iceberg snapshot summary property {@code cryo.job-id})
 * @param planId the plan it runs
 * @param table the table, whose lock the job holds
 * @param engine the engine chosen for it
 * @param slot the engine slot it occupies (0-based)
 * @param admittedAt when
 * @param leaseExpiresAt the lock lease ends here unless the executor heartbeats
 * @param governorId the governor instance that admitted it
 * @param plan the plan
 */
public record JobAdmitted(
        String jobId,
        String planId,
        TableId table,
        Engine engine,
        int slot,
        Instant admittedAt,
        Instant leaseExpiresAt,
        String governorId,
        MaintenancePlanned plan) implements CryoEvent {

    public JobAdmitted {
        Require.nonBlank(jobId, "jobId");
        Require.nonBlank(planId, "planId");
        requireNonNull(table, "table is null");
        requireNonNull(engine, "engine is null");
        Require.nonNegative(slot, "slot");
        requireNonNull(admittedAt, "admittedAt is null");
        requireNonNull(leaseExpiresAt, "leaseExpiresAt is null");
        Require.nonBlank(governorId, "governorId");
        requireNonNull(plan, "plan is null");
        if (!plan.planId().equals(planId) || !plan.table().equals(table)) {
            throw new IllegalArgumentException("job " + jobId + " names plan " + planId + " of " + table
                    + " but carries plan " + plan.planId() + " of " + plan.table());
        }
    }
}
