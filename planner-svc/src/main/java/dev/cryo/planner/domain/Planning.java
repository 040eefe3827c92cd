package dev.cryo.planner.domain;

import dev.cryo.contracts.Grade;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.Estimate;
import dev.cryo.contracts.event.MaintenancePlanned;
import dev.cryo.contracts.event.PlannedOperation;

import java.time.Instant;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * What planning one graded scan produced: the operations (none for a healthy table) and the
 * notes that explain what was left out and why.
 *
 * @param table the table
 * @param scanId the scan planned from
 * @param snapshotId its snapshot (optional)
 * @param scanStartedAt when that scan began reading the table (optional)
 * @param score the graded score
 * @param grade the graded band
 * @param expectedScore the score once the operations ran: the score plus the points of every
 *                      deduction whose fix is in the plan, at most 100
 * @param operations the operations in the fixed order, empty when there is nothing to do
 * @param estimate the sum of the operations' estimates
 * @param notes what planning decided and why, for logs and the preview
 */
public record Planning(TableId table, String scanId, Long snapshotId, Instant scanStartedAt, int score, Grade grade, int expectedScore,
                       List<PlannedOperation> operations, Estimate estimate, List<String> notes) {

    public Planning {
        requireNonNull(table, "table is null");
        requireNonNull(scanId, "scanId is null");
        requireNonNull(grade, "grade is null");
        operations = List.copyOf(operations);
        requireNonNull(estimate, "estimate is null");
        notes = List.copyOf(notes);
    }

    /** True when there is something to do; a healthy table, or one with nothing selectable, has no plan. */
    public boolean hasPlan() {
        return !operations.isEmpty();
    }

    /**
     * The event of this plan.
     *
     * @param supersedesPlanId the table's earlier plan that this one replaces (optional)
     * @param actor who asked for it (optional)
     */
    public MaintenancePlanned toEvent(String planId, Instant plannedAt, String supersedesPlanId, String actor) {
        if (!hasPlan()) {
            throw new IllegalStateException("Cannot publish a plan for " + table + ": it has no operation");
        }
        return new MaintenancePlanned(planId, table, scanId, snapshotId, scanStartedAt, plannedAt, score, grade, expectedScore,
                operations, estimate, supersedesPlanId, actor);
    }
}
