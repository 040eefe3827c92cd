package dev.cryo.contracts.event;

import dev.cryo.contracts.Grade;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;

import java.time.Instant;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A maintenance plan: operations in the fixed order, partition chunks as data, no SQL.
 *
 * @param planId this plan's id
 * @param table the table
 * @param scanId the scan it was planned from
 * @param snapshotId the snapshot it was planned from (optional)
 * @param scanStartedAt when that scan began reading the table (optional): the plan describes the table as
 *                      it was then or later; the governor drops an event-flow plan whose scan began
 *                      before a job's last commit to the table, since the scan after that commit
 *                      plans what is still needed
 * @param plannedAt when
 * @param score the table's score when planned (the governor admits worst first)
 * @param grade the table's grade when planned
 * @param expectedScore the score expected after the plan
 * @param operations the operations, in the fixed order of {@link Operation}
 * @param estimate the whole plan's estimate
 * @param supersedesPlanId an older, unstarted plan of the same table that this one replaces (optional)
 * @param actor who asked for it: an operator's "fix now", or absent for the event flow (optional)
 */
public record MaintenancePlanned(
        String planId,
        TableId table,
        String scanId,
        Long snapshotId,
        Instant scanStartedAt,
        Instant plannedAt,
        int score,
        Grade grade,
        int expectedScore,
        List<PlannedOperation> operations,
        Estimate estimate,
        String supersedesPlanId,
        String actor) implements CryoEvent {

    public MaintenancePlanned {
        Require.nonBlank(planId, "planId");
        requireNonNull(table, "table is null");
        Require.nonBlank(scanId, "scanId");
        requireNonNull(plannedAt, "plannedAt is null");
        requireNonNull(grade, "grade is null");
        operations = Require.list(operations, "operations");
        if (operations.isEmpty()) {
            throw new IllegalArgumentException("a plan needs at least one operation: a healthy table gets no plan");
        }
        for (int i = 1; i < operations.size(); i++) {
            Operation before = operations.get(i - 1).operation();
            Operation after = operations.get(i).operation();
            if (before.ordinal() >= after.ordinal()) {
                throw new IllegalArgumentException("operations must be unique and in the fixed order, found "
                        + before + " before " + after);
            }
        }
        requireNonNull(estimate, "estimate is null");
    }

    /** The operations alone, in order. */
    public List<Operation> operationList() {
        return operations.stream().map(PlannedOperation::operation).toList();
    }
}
