package dev.cryo.console.client;

import dev.cryo.contracts.event.JobScored;
import dev.cryo.contracts.event.MaintenancePlanned;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.time.Instant;
import java.util.List;

/** planner-svc's REST API, as far as the console uses it. */
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
public interface PlannerApi {

    /**
     * A table's newest plan.
     *
     * @param status {@code PLANNED}, {@code SUPERSEDED}, {@code STARTED}, {@code FINISHED}, …
     * @param plan the plan as it was published, chunks and predicates included
     */
    record CurrentPlan(String planId, String table, String status, Instant statusChangedAt, String supersededByPlanId,
                       MaintenancePlanned plan) {
    }

    @GET
    @Path("/tables/{table}/plan")
    CurrentPlan currentPlan(@PathParam("table") String table);

    /** How a period's jobs kept their plans' promises (the console uses the scores only). */
    record JobScores(List<JobScored> scores) {
        public JobScores {
            scores = scores == null ? List.of() : List.copyOf(scores);
        }
    }

    /**
     * @param since an ISO instant or a duration back from now ({@code P30D})
     */
    @GET
    @Path("/job-scores")
    JobScores jobScores(@QueryParam("table") String table, @QueryParam("since") String since, @QueryParam("limit") int limit);
}
