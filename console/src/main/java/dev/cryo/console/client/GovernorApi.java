package dev.cryo.console.client;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import java.time.Instant;
import java.util.List;

/** governor-svc's REST API, as far as the console uses it. */
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
public interface GovernorApi {

    /** A job that holds its table: admitted and waiting for an executor, or running. */
    record QueuedJob(String jobId, String planId, String table, String engine, int slot, int attempt,
                     Instant admittedAt, String admittedBy, Instant leaseExpiresAt, Instant startedAt,
                     String executorId, Instant lastHeartbeatAt, String operation, Integer chunksDone,
                     Integer chunksTotal, String note) {
    }

    /** A plan that waits, with the reason of its last deferral and when it may run. */
    record WaitingPlan(String planId, String table, int score, Instant plannedAt, Instant receivedAt, String reason,
                       String message, Instant retryAfter, Instant deferredAt, String engine, String supersedesPlanId) {
    }

    record Queue(List<QueuedJob> admitted, List<QueuedJob> running, List<WaitingPlan> deferred) {
        public Queue {
            admitted = admitted == null ? List.of() : List.copyOf(admitted);
            running = running == null ? List.of() : List.copyOf(running);
            deferred = deferred == null ? List.of() : List.copyOf(deferred);
        }
    }

    /** What the last decision on an engine saw of its load. */
    record EngineLoad(Integer foreignQueries, int limit, boolean overLimit, String problem, Instant observedAt) {
    }

    record EngineSlots(String engine, int slots, int slotsInUse, int maxForeignQueries, EngineLoad lastLoad,
                       String updatedBy, Instant updatedAt) {
    }

    record Pause(String id, String pattern, String reason, String pausedBy, Instant pausedAt) {
    }

    record PauseRequest(String pattern, String reason) {
    }

    record Lock(String table, String jobId, String planId, Instant leaseExpiresAt) {
    }

    /** A policy rule for a table pattern; absent fields leave the setting to broader patterns or the default. */
    record Policy(String pattern, String cooldown, List<String> windows, String engine, String updatedBy,
                  Instant updatedAt) {
    }

    record PolicyRequest(String cooldown, List<String> windows, String engine) {
    }

    /**
     * Everything the governor knows of one table: its resolved policy, pause, lock and queued plans.
     *
     * @param rules the policy patterns that match it, most specific first
     */
    record GovernedTable(String table, Pause pausedBy, String cooldown, List<String> windows, String engine,
                         List<String> rules, Lock lock, Instant lastJobFinishedAt, List<WaitingPlan> queued) {
        public GovernedTable {
            windows = windows == null ? List.of() : List.copyOf(windows);
            rules = rules == null ? List.of() : List.copyOf(rules);
            queued = queued == null ? List.of() : List.copyOf(queued);
        }
    }

    @GET
    @Path("/queue")
    Queue queue();

    @GET
    @Path("/engines")
    List<EngineSlots> engines();

    @GET
    @Path("/tables/{table}")
    GovernedTable table(@PathParam("table") String table);

    @GET
    @Path("/policies")
    List<Policy> policies();

    @POST
    @Path("/pauses")
    @Consumes(MediaType.APPLICATION_JSON)
    Pause pause(@HeaderParam("Authorization") String authorization, PauseRequest request);

    @DELETE
    @Path("/pauses/{id}")
    void resume(@HeaderParam("Authorization") String authorization, @PathParam("id") String pauseId);

    @PUT
    @Path("/policies/{pattern}")
    @Consumes(MediaType.APPLICATION_JSON)
    Policy setPolicy(@HeaderParam("Authorization") String authorization, @PathParam("pattern") String pattern,
                     PolicyRequest request);

    @DELETE
    @Path("/policies/{pattern}")
    void removePolicy(@HeaderParam("Authorization") String authorization, @PathParam("pattern") String pattern);
}
