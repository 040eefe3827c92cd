package dev.cryo.console.client;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.time.Instant;
import java.util.List;

/** executor-svc's REST API, as far as the console uses it. */
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
public interface ExecutorApi {

    /**
     * A job as the executors recorded it.
     *
     * @param state {@code running} or {@code finished}
     * @param outcome how it ended (null while running)
     */
    record ExecutorJob(String jobId, String planId, String table, String owner, int attempt, String state,
                       Instant startedAt, Instant heartbeatAt, Instant finishedAt, String outcome, String errorCode,
                       String message) {
    }

    /** Recent jobs, newest first. */
    @GET
    @Path("/jobs")
    List<ExecutorJob> jobs(@QueryParam("limit") int limit);
}
