package dev.cryo.governor.domain;

import dev.cryo.contracts.TableId;

import java.time.Instant;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A plan made from a scan that began before a job's last commit to the table describes the table
 * as it was before that job: admitted after the job, it would run the same maintenance again.
 * Such a plan is dropped as superseded; the commit moved the table's metadata, so the scanner
 * scans the table again and the planner plans whatever is still needed from that scan.
 *
 * <p>Kept: an operator's fix now (asked for explicitly), a plan whose scan saw the job's last
 * snapshot, and a plan that does not say when its scan began (an older planner).
 */
public final class StalePlans {

    /**
     * What a plan was made from.
     *
     * @param planId the plan
     * @param table its table
     * @param snapshotId the snapshot its scan saw (optional)
     * @param scanStartedAt when its scan began reading the table (optional)
     * @param operatorRequest whether an operator asked for it (fix now)
     */
    public record PlanBasis(String planId, TableId table, Long snapshotId, Instant scanStartedAt,
                            boolean operatorRequest) {
        public PlanBasis {
            requireNonNull(planId, "planId is null");
            requireNonNull(table, "table is null");
        }
    }

    /**
     * A job's last commit to its table.
     *
     * @param jobId the job
     * @param snapshotId the snapshot it committed
     * @param committedAt when the operation that committed it finished
     */
    public record LastCommit(String jobId, long snapshotId, Instant committedAt) {
        public LastCommit {
            requireNonNull(jobId, "jobId is null");
            requireNonNull(committedAt, "committedAt is null");
        }
    }

    /** Why the plan is stale after the commit, or empty when it is not. */
    public static Optional<String> staleAfter(PlanBasis plan, LastCommit commit) {
        requireNonNull(plan, "plan is null");
        requireNonNull(commit, "commit is null");
        if (plan.operatorRequest() || plan.scanStartedAt() == null
                || (plan.snapshotId() != null && plan.snapshotId() == commit.snapshotId())
                || !plan.scanStartedAt().isBefore(commit.committedAt())) {
            return Optional.empty();
        }
        return Optional.of("plan " + plan.planId() + " of " + plan.table() + " was made from a scan that began at "
                + plan.scanStartedAt() + ", before job " + commit.jobId() + " committed snapshot "
                + commit.snapshotId() + " at " + commit.committedAt()
                + "; the scan after that commit plans what is still needed");
    }

    private StalePlans() {
    }
}
