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
 * <p>An operator's fix now is no exception: run after the job, it would find the work done and
 * change nothing (a no-op job). {@code ./cryo fix} follows the job that held the table instead and
 * reports its outcome. Kept: a plan whose scan saw the job's last snapshot, and a plan that does
 * not say when its scan began (an older planner).
 */
public final class StalePlans {

    /**
     * What a plan was made from.
     *
     * @param planId the plan
     * @param table its table
     * @param snapshotId the snapshot its scan saw (optional)
     * @param scanStartedAt when its scan began reading the table (optional)
     */
    public record PlanBasis(String planId, TableId table, Long snapshotId, Instant scanStartedAt) {
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
        if (plan.scanStartedAt() == null
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
