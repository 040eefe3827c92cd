package dev.cryo.audit.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRawValue;
import dev.cryo.audit.AuditErrorCode;
import dev.cryo.audit.app.Replays;
import dev.cryo.audit.domain.AuditFilter;
import dev.cryo.audit.domain.ReplayRun;
import dev.cryo.platform.error.CryoException;
import dev.cryo.platform.security.Actors;
import dev.cryo.platform.security.Roles;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Replays: rebuilding the log from Kafka into an empty schema (and comparing it with the live one),
 * and re-publishing stored events to cryo.replay.v1. Starting one needs an operator; both run in the
 * background and report progress at {@code GET /api/v1/audit/replays/{id}}.
 */
@Path("/api/v1/audit/replays")
@Produces(MediaType.APPLICATION_JSON)
public class ReplayResource {

    private static final int MAX_LISTED = 50;

    private final Replays replays;
    private final SecurityIdentity identity;

    ReplayResource(Replays replays, SecurityIdentity identity) {
        this.replays = replays;
        this.identity = identity;
    }

    /**
     * A rebuild.
     *
     * @param targetSchema the new, empty schema to write (optional: {@code <live schema>_rebuild_<UTC time>})
     * @param from read from the first record at or after this time (optional: the earliest retained)
     */
    public record RebuildRequest(String targetSchema, Instant from) {
    }

    /**
     * A re-publication of the stored events of a time range (by event time).
     *
     * @param from first event time (inclusive)
     * @param to last event time (exclusive)
     * @param table only this table (optional)
     * @param type only this CloudEvents type (optional)
     */
    public record PublishRequest(Instant from, Instant to, String table, String type) {
    }

    /**
     * A replay run.
     *
     * @param id the run
     * @param kind rebuild or publish
     * @param actor who asked
     * @param requestedAt when
     * @param parameters what was asked
     * @param state queued, running, succeeded or failed
     * @param recordsTotal records to handle, once known
     * @param recordsDone records handled so far
     * @param message progress, or why it failed
     * @param result what it found
     * @param updatedAt last change
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record RunView(UUID id, String kind, String actor, Instant requestedAt, @JsonRawValue String parameters,
                          String state, Long recordsTotal, long recordsDone, String message, @JsonRawValue String result,
                          Instant updatedAt) {
        static RunView of(ReplayRun run) {
            return new RunView(run.id(), run.kind().id(), run.actor(), run.requestedAt(), run.parametersJson(),
                    run.state().id(), run.recordsTotal(), run.recordsDone(), run.message(), run.resultJson(), run.updatedAt());
        }
    }

    @POST
    @Path("/rebuild")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(Roles.OPERATOR)
    public Response rebuild(RebuildRequest request) {
        RebuildRequest given = request == null ? new RebuildRequest(null, null) : request;
        ReplayRun run = replays.rebuild(Optional.ofNullable(given.targetSchema()).filter(name -> !name.isBlank()),
                Optional.ofNullable(given.from()), Actors.of(identity));
        return accepted(run);
    }

    @POST
    @Path("/publish")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(Roles.OPERATOR)
    public Response publish(PublishRequest request) {
        if (request == null || request.from() == null || request.to() == null) {
            throw new CryoException(AuditErrorCode.INVALID_REPLAY, "Cannot re-publish: give the time range as "
                    + "{\"from\": \"...Z\", \"to\": \"...Z\"}");
        }
        AuditFilter filter;
        try {
            filter = AuditFilter.between(request.from(), request.to()).withTable(request.table());
        } catch (IllegalArgumentException e) {
            throw new CryoException(AuditErrorCode.INVALID_REPLAY, "Cannot re-publish: " + e.getMessage());
        }
        if (request.type() != null) {
            filter = new AuditFilter(filter.table(), null, null, null, null, null, null, request.type(), null, filter.from(),
                    filter.to(), null);
        }
        return accepted(replays.publish(filter, Actors.of(identity)));
    }

    @GET
    public List<RunView> list(@QueryParam("limit") Integer limit) {
        int count = limit == null ? MAX_LISTED : Math.max(1, Math.min(limit, MAX_LISTED));
        return replays.recent(count).stream().map(RunView::of).toList();
    }

    @GET
    @Path("/{id}")
    public RunView get(@PathParam("id") String id) {
        UUID runId;
        try {
            runId = UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            throw new CryoException(AuditErrorCode.REPLAY_NOT_FOUND, "Cannot find replay " + id + ": not a replay id");
        }
        return replays.find(runId).map(RunView::of).orElseThrow(() -> new CryoException(AuditErrorCode.REPLAY_NOT_FOUND,
                "Cannot find replay " + id + ": no such run"));
    }

    private static Response accepted(ReplayRun run) {
        return Response.accepted(RunView.of(run)).location(URI.create("/api/v1/audit/replays/" + run.id())).build();
    }
}
