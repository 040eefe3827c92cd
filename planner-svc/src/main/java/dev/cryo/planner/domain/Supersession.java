package dev.cryo.planner.domain;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Which earlier plan a new plan of the same table replaces: the newest one, unless an executor
 * reported it finished (a finished plan is history). A plan reported started is still named:
 * whether to let a running job finish or to cancel it is the governor's call, not the planner's;
 * the planner only says which plan the new one is meant to replace.
 */
public final class Supersession {

    /** A stored plan as supersession sees it. */
    public record PriorPlan(String planId, Instant plannedAt, PlanStatus status) {
        public PriorPlan {
            requireNonNull(planId, "planId is null");
            requireNonNull(plannedAt, "plannedAt is null");
            requireNonNull(status, "status is null");
        }
    }

    /** The plan a new plan supersedes, if any, among the table's earlier plans (any order). */
    public static Optional<String> supersededPlan(List<PriorPlan> earlierPlans) {
        return earlierPlans.stream()
                .max(Comparator.comparing(PriorPlan::plannedAt).thenComparing(PriorPlan::planId))
                .filter(newest -> newest.status() == PlanStatus.PLANNED || newest.status() == PlanStatus.STARTED)
                .map(PriorPlan::planId);
    }

    private Supersession() {
    }
}
