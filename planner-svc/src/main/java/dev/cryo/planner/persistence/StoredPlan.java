package dev.cryo.planner.persistence;

import dev.cryo.contracts.event.MaintenancePlanned;
import dev.cryo.planner.domain.PlanStatus;

import java.time.Instant;

import static java.util.Objects.requireNonNull;

/**
 * A published plan and what is needed to publish it again identically.
 *
 * @param eventId the MaintenancePlanned's CloudEvents id
 * @param gradeEventId the TableGraded it was planned from
 * @param triggerEventId the event whose handling produced it: the TableGraded, or the TableScanned it waited for
 * @param correlationId the chain it belongs to
 * @param status where it stands
 * @param statusChangedAt when the status last changed
 * @param supersededByPlanId the newer plan that replaced it (optional)
 * @param plan the event payload
 */
public record StoredPlan(String eventId, String gradeEventId, String triggerEventId, String correlationId,
                         PlanStatus status, Instant statusChangedAt, String supersededByPlanId, MaintenancePlanned plan) {
    public StoredPlan {
        requireNonNull(eventId, "eventId is null");
        requireNonNull(gradeEventId, "gradeEventId is null");
        requireNonNull(triggerEventId, "triggerEventId is null");
        requireNonNull(correlationId, "correlationId is null");
        requireNonNull(status, "status is null");
        requireNonNull(statusChangedAt, "statusChangedAt is null");
        requireNonNull(plan, "plan is null");
    }
}
