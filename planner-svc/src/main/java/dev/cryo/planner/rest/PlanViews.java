package dev.cryo.planner.rest;

import dev.cryo.contracts.Grade;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.Estimate;
import dev.cryo.contracts.event.MaintenancePlanned;
import dev.cryo.contracts.event.PlannedOperation;
import dev.cryo.planner.domain.PlanStatus;

import java.time.Instant;
import java.util.List;

/** The JSON answers of the plan API. */
final class PlanViews {

    /**
     * A plan with its chunks and estimates.
     *
     * @param status planned, superseded or finished
     * @param statusChangedAt when the status last changed
     * @param supersededByPlanId the newer plan that replaced it (optional)
     * @param plan the plan as it was published
     * @param correlationId the chain it belongs to: the id of the table change that led to it (for a
     *                      fix now, the event id the scanner answered the request with)
     */
    record PlanView(String planId, TableId table, PlanStatus status, Instant statusChangedAt,
                    String supersededByPlanId, MaintenancePlanned plan, String correlationId) {
    }

    /** One line of a table's plan history; {@code correlationId} as in {@link PlanView}. */
    record PlanSummary(String planId, PlanStatus status, Instant plannedAt, String scanId, int score, Grade grade,
                       int expectedScore, List<Operation> operations, Estimate estimate, String supersedesPlanId,
                       String supersededByPlanId, String actor, String correlationId) {
        PlanSummary {
            operations = List.copyOf(operations);
        }
    }

    /** A table's plans, newest first. */
    record PlanHistory(TableId table, List<PlanSummary> plans) {
        PlanHistory {
            plans = List.copyOf(plans);
        }
    }

    /** The body of {@code POST /api/v1/plans/preview}. */
    record PreviewRequest(String table) {
    }

    /**
     * What the planner would plan for a table now, from its latest grade and the stored scan it names.
     * Nothing is stored or published.
     *
     * @param planned whether there would be a plan at all
     * @param supersedesPlanId the stored plan a real plan would replace (optional)
     * @param notes why operations were left out, which settings applied
     */
    record PlanPreview(TableId table, String scanId, Long snapshotId, int score, Grade grade, int expectedScore,
                       boolean planned, List<PlannedOperation> operations, Estimate estimate, String supersedesPlanId,
                       List<String> notes) {
        PlanPreview {
            operations = List.copyOf(operations);
            notes = List.copyOf(notes);
        }
    }

    private PlanViews() {
    }
}
