package dev.cryo.planner.rest;

import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.MaintenancePlanned;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.planner.PlannerErrorCode;
import dev.cryo.planner.app.PlanningService;
import dev.cryo.planner.domain.Planning;
import dev.cryo.planner.domain.Supersession;
import dev.cryo.planner.persistence.PlanStore;
import dev.cryo.planner.persistence.StoredGrade;
import dev.cryo.planner.persistence.StoredPlan;
import dev.cryo.planner.rest.PlanViews.PlanHistory;
import dev.cryo.planner.rest.PlanViews.PlanPreview;
import dev.cryo.planner.rest.PlanViews.PlanSummary;
import dev.cryo.planner.rest.PlanViews.PlanView;
import dev.cryo.planner.rest.PlanViews.PreviewRequest;
import dev.cryo.platform.error.CryoException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.util.List;

/**
 * Plans as operators and the console read them. Everything here is a read: the preview plans
 * a table without storing or publishing anything, so it needs no operator role.
 */
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
public class PlanResource {

    private static final int MAX_HISTORY = 500;
    /** Plan ids are UUIDs; anything much longer is not one. */
    private static final int MAX_ID_LENGTH = 64;

    private final PlanStore store;
    private final PlanningService planning;

    PlanResource(PlanStore store, PlanningService planning) {
        this.store = store;
        this.planning = planning;
    }

    /** The table's newest plan, with its chunks and estimates. */
    @GET
    @Path("/tables/{table}/plan")
    public PlanView currentPlan(@PathParam("table") String table) {
        TableId id = tableId(table);
        StoredPlan stored = store.plans(id, 1).stream().findFirst().orElseThrow(() -> new CryoException(
                PlannerErrorCode.TABLE_NOT_KNOWN, "Cannot show the plan of " + id + ": " + whyNoPlan(id)));
        return view(stored);
    }

    /** One plan by its id, with where it stands (the governor's queue and the executors' jobs name plans by id). */
    @GET
    @Path("/plans/{planId}")
    public PlanView plan(@PathParam("planId") String planId) {
        if (planId.length() > MAX_ID_LENGTH) {
            throw CryoException.invalid("Cannot show plan '" + planId.substring(0, 40) + "…': a plan id is at most "
                    + MAX_ID_LENGTH + " characters");
        }
        return store.plan(planId).map(PlanResource::view).orElseThrow(() -> new CryoException(
                PlannerErrorCode.PLAN_NOT_KNOWN, "Cannot show plan " + planId + ": the planner has no plan with that id"));
    }

    /** The table's plans, newest first. */
    @GET
    @Path("/tables/{table}/plans")
    public PlanHistory history(@PathParam("table") String table, @QueryParam("limit") @DefaultValue("50") int limit) {
        TableId id = tableId(table);
        if (limit < 1 || limit > MAX_HISTORY) {
            throw CryoException.invalid("Cannot list plans: limit must be 1.." + MAX_HISTORY + ", was " + limit);
        }
        List<StoredPlan> plans = store.plans(id, limit);
        if (plans.isEmpty() && store.latestGrade(id).isEmpty()) {
            throw new CryoException(PlannerErrorCode.TABLE_NOT_KNOWN,
                    "Cannot list the plans of " + id + ": " + whyNoPlan(id));
        }
        return new PlanHistory(id, plans.stream().map(PlanResource::summary).toList());
    }

    /** Plans the table now from its latest grade and stored scan; stores and publishes nothing. */
    @POST
    @Path("/plans/preview")
    @Consumes(MediaType.APPLICATION_JSON)
    public PlanPreview preview(PreviewRequest request) {
        if (request == null || request.table() == null || request.table().isBlank()) {
            throw CryoException.invalid("Cannot preview a plan: the body must name a table, e.g. {\"table\": \"catalog.namespace.table\"}");
        }
        TableId id = tableId(request.table());
        StoredGrade grade = store.latestGrade(id).orElseThrow(() -> new CryoException(PlannerErrorCode.TABLE_NOT_KNOWN,
                "Cannot preview a plan for " + id + ": the planner has stored no grade of it yet"));
        TableScanned scan = store.findScan(id, grade.grade().scanId()).orElseThrow(() -> new CryoException(
                PlannerErrorCode.SCAN_NOT_STORED, "Cannot preview a plan for " + id + ": its latest grade names scan "
                + grade.grade().scanId() + ", which has not arrived on the scans topic (or was pruned)"));
        Planning preview = planning.preview(grade, scan);
        String supersedes = preview.hasPlan() ? Supersession.supersededPlan(store.priorPlans(id)).orElse(null) : null;
        return new PlanPreview(id, scan.scanId(), preview.snapshotId(), preview.score(), preview.grade(),
                preview.expectedScore(), preview.hasPlan(), preview.operations(), preview.estimate(), supersedes,
                preview.notes());
    }

    private String whyNoPlan(TableId table) {
        return store.latestGrade(table)
                .map(grade -> grade.waitingForScan()
                        ? "its latest grade waits for scan " + grade.grade().scanId()
                        : grade.grade().deductions().isEmpty()
                        ? "it has none; its latest grade (" + grade.grade().grade() + ", score " + grade.grade().score()
                        + ") has no deduction, and a healthy table gets no plan"
                        : "it has none; its latest grade left nothing to do (see POST /api/v1/plans/preview)")
                .orElse("the planner has stored no grade of it");
    }

    private static PlanView view(StoredPlan stored) {
        MaintenancePlanned plan = stored.plan();
        return new PlanView(plan.planId(), plan.table(), stored.status(), stored.statusChangedAt(),
                stored.supersededByPlanId(), plan, stored.correlationId());
    }

    private static PlanSummary summary(StoredPlan stored) {
        MaintenancePlanned plan = stored.plan();
        return new PlanSummary(plan.planId(), stored.status(), plan.plannedAt(), plan.scanId(), plan.score(),
                plan.grade(), plan.expectedScore(), plan.operationList(), plan.estimate(), plan.supersedesPlanId(),
                stored.supersededByPlanId(), plan.actor(), stored.correlationId());
    }

    private static TableId tableId(String text) {
        try {
            return TableId.parse(text);
        } catch (IllegalArgumentException e) {
            throw CryoException.invalid(e.getMessage());
        }
    }
}
