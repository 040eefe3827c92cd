package dev.cryo.planner.domain;

import dev.cryo.contracts.Grade;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.Deduction;
import dev.cryo.contracts.event.JobOutcome;
import dev.cryo.contracts.event.JobScored;
import dev.cryo.contracts.event.MaintenancePlanned;
import dev.cryo.contracts.event.TableGraded;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * Scores a finished job against its plan's promise: the expected score, and the first grade of a
 * scan that started after the job's last change (after its end when it changed nothing). A job
 * that succeeded and whose operations changed nothing is counted as a no-op, by name; one after
 * which no grade arrives in time is published without an actual score.
 */
public final class JobScores {

    /**
     * What the planner knows of a finished job.
     *
     * @param changed operations that changed the table, or may have (the engine could not tell)
     * @param noOps operations that ran to the end and changed nothing
     * @param lastChangeAt when the last of the changing operations finished (null: none changed); the
     *                     job's end when it reported succeeded operations the planner never saw
     */
    public record FinishedJob(String jobId, String planId, TableId table, JobOutcome outcome, Set<Operation> changed,
                              Set<Operation> noOps, Instant lastChangeAt, Instant finishedAt) {
        public FinishedJob {
            requireNonNull(jobId, "jobId is null");
            requireNonNull(planId, "planId is null");
            requireNonNull(table, "table is null");
            requireNonNull(outcome, "outcome is null");
            changed = Set.copyOf(changed);
            noOps = Set.copyOf(noOps);
            requireNonNull(finishedAt, "finishedAt is null");
        }

        /** True when no operation changed the table, or may have. */
        public boolean changedNothing() {
            return changed.isEmpty() && lastChangeAt == null;
        }

        /**
         * Whether a grade of a scan that started at {@code scanStartedAt} shows the table after the
         * job: the scan began after the job's last change, or after its end when it changed nothing
         * (an earlier grade may not show another job's change that came before this one).
         */
        public boolean shownBy(Instant scanStartedAt) {
            return !scanStartedAt.isBefore(lastChangeAt != null ? lastChangeAt : finishedAt);
        }
    }

    /** The job against the grade that shows it. */
    public static JobScored scored(FinishedJob job, MaintenancePlanned plan, TableGraded grade, Instant now) {
        Set<Operation> planned = Set.copyOf(plan.operationList());
        List<Deduction> remaining = grade.deductions().stream().filter(deduction -> planned.contains(deduction.fix()))
                .toList();
        boolean noOp = isNoOp(job);
        StringBuilder message = new StringBuilder(prefix(job, noOp));
        message.append("score ").append(plan.score()).append(" → ").append(grade.score()).append(" (")
                .append(grade.grade()).append("), expected ").append(plan.expectedScore()).append(": ");
        int difference = grade.score() - plan.expectedScore();
        message.append(difference == 0 ? "reached" : difference > 0 ? difference + " points above"
                : -difference + " points short");
        if (!remaining.isEmpty()) {
            message.append("; still: ").append(remaining.stream()
                    .map(deduction -> deduction.check().id() + " (" + deduction.explanation() + ")")
                    .collect(Collectors.joining(", ")));
        }
        appendNoOps(message, job, noOp);
        return new JobScored(job.jobId(), job.planId(), job.table(), job.outcome(), plan.score(), plan.expectedScore(),
                grade.score(), Grade.of(grade.score()), grade.scanId(), remaining, noOp, Operation.inFixedOrder(job.noOps()),
                message.toString(), now);
    }

    /** The job when no grade showed it within {@code waited}. */
    public static JobScored ungraded(FinishedJob job, MaintenancePlanned plan, Duration waited, String setting, Instant now) {
        boolean noOp = isNoOp(job);
        StringBuilder message = new StringBuilder(prefix(job, noOp));
        message.append("no grade of a scan that started after the job's last change arrived within ").append(waited)
                .append(" (").append(setting).append("): expected ").append(plan.expectedScore())
                .append(" from ").append(plan.score()).append(", not measured");
        appendNoOps(message, job, noOp);
        return new JobScored(job.jobId(), job.planId(), job.table(), job.outcome(), plan.score(), plan.expectedScore(),
                null, null, null, List.of(), noOp, Operation.inFixedOrder(job.noOps()), message.toString(), now);
    }

    private static boolean isNoOp(FinishedJob job) {
        return job.outcome() == JobOutcome.SUCCEEDED && job.changedNothing();
    }

    private static String prefix(FinishedJob job, boolean noOp) {
        if (noOp) {
            return "no-op: " + names(job.noOps()) + " changed nothing; ";
        }
        return job.outcome() == JobOutcome.SUCCEEDED ? "" : "job " + job.outcome().id() + "; ";
    }

    private static void appendNoOps(StringBuilder message, FinishedJob job, boolean noOp) {
        if (!noOp && !job.noOps().isEmpty()) {
            message.append("; ").append(names(job.noOps())).append(" changed nothing");
        }
    }

    private static String names(Set<Operation> operations) {
        return operations.isEmpty() ? "no operation"
                : Operation.inFixedOrder(operations).stream().map(Operation::id).collect(Collectors.joining(", "));
    }

    private JobScores() {
    }
}
