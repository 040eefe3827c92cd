package dev.cryo.governor.domain;

import dev.cryo.contracts.TableId;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A newer plan for a table replaces an older one that has not started: the older one is dropped
 * with the reason "superseded". An older plan that already runs is not stopped; the newer one
 * waits for its lock like any other plan.
 */
public final class Supersession {

    /** Where a plan the governor knows stands. */
    public enum Stage { QUEUED, ADMITTED, DONE, SUPERSEDED }

    /**
     * A plan the governor has stored.
     *
     * @param planId the plan
     * @param table its table
     * @param stage where it stands
     */
    public record KnownPlan(String planId, TableId table, Stage stage) {
        public KnownPlan {
            requireNonNull(planId, "planId is null");
            requireNonNull(table, "table is null");
            requireNonNull(stage, "stage is null");
        }
    }

    /** What to do when a plan arrives. */
    public sealed interface Outcome {
    }

    /** Queue the arriving plan; nothing else changes. */
    public record QueueArriving() implements Outcome {
    }

    /** Queue the arriving plan and drop the older one. */
    public record DropOlder(String olderPlanId, String message) implements Outcome {
    }

    /** Do not queue the arriving plan: a newer plan, received earlier, already replaced it. */
    public record DropArriving(String message) implements Outcome {
    }

    /**
     * @param arrivingPlanId the plan that arrives
     * @param table its table
     * @param superseded the plan it names as replaced, when the governor knows it
     * @param supersededBy a known plan that names the arriving one as replaced (it arrived first)
     */
    public static Outcome onArrival(String arrivingPlanId, TableId table, Optional<KnownPlan> superseded,
                                    Optional<KnownPlan> supersededBy) {
        requireNonNull(arrivingPlanId, "arrivingPlanId is null");
        requireNonNull(table, "table is null");
        if (supersededBy.isPresent() && supersededBy.get().table().equals(table)) {
            return new DropArriving("plan " + arrivingPlanId + " of " + table + " was replaced by newer plan "
                    + supersededBy.get().planId() + ", which arrived first");
        }
        if (superseded.isPresent() && superseded.get().stage() == Stage.QUEUED && superseded.get().table().equals(table)) {
            return new DropOlder(superseded.get().planId(), "plan " + superseded.get().planId() + " of " + table
                    + " was replaced by newer plan " + arrivingPlanId + " before it started");
        }
        return new QueueArriving();
    }

    private Supersession() {
    }
}
