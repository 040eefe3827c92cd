package dev.cryo.executor.rest;

import dev.cryo.contracts.TableId;
import dev.cryo.executor.engine.StepResult;
import dev.cryo.executor.iceberg.NativeEngine;
import dev.cryo.executor.persistence.BrakeReleases;
import dev.cryo.platform.error.CryoException;
import dev.cryo.platform.security.Actors;
import dev.cryo.platform.security.Roles;
import io.quarkus.logging.Log;
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

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.List;

/**
 * A table's orphan files as remove_orphan_files sees them now (a dry run: nothing is deleted), and
 * the operator's release of the share brake for the table's next run. Both are operators' tools.
 */
@Path("/api/v1/tables/{table}/orphans")
@Produces(MediaType.APPLICATION_JSON)
public class OrphansResource {

    static final int MAX_REASON_LENGTH = 1000;

    /** What remove_orphan_files would delete now, and why it would stop if it would. */
    public record OrphansView(String table, Duration ageFloor, long files, long bytes, String message,
                              List<String> locations) {
    }

    /** POST body of a brake release. */
    public record ReleaseRequest(String reason) {
    }

    private final NativeEngine nativeEngine;
    private final BrakeReleases releases;
    private final SecurityIdentity identity;

    OrphansResource(NativeEngine nativeEngine, BrakeReleases releases, SecurityIdentity identity) {
        this.nativeEngine = nativeEngine;
        this.releases = releases;
        this.identity = identity;
    }

    /**
     * The orphans of a table, deleting nothing: the same files remove_orphan_files would delete now.
     * Operators only: it lists the whole table location and reads every manifest, which no
     * anonymous caller may make the executor do at will.
     */
    @GET
    @RolesAllowed(Roles.OPERATOR)
    public OrphansView orphans(@PathParam("table") String table, @QueryParam("ageFloor") String ageFloor) {
        TableId id = parse(table, "list orphans");
        Duration floor;
        try {
            floor = ageFloor == null ? null : Duration.parse(ageFloor);
        } catch (DateTimeParseException e) {
            throw CryoException.invalid("Cannot list orphans of " + id + ": ageFloor is not an ISO-8601 duration: "
                    + e.getMessage());
        }
        StepResult result = nativeEngine.findOrphans(id, floor);
        return new OrphansView(id.toString(), floor, result.before().dataFiles(), result.before().dataBytes(),
                result.message(), result.files());
    }

    /** The table's releases of the share brake, newest first. */
    @GET
    @Path("brake-releases")
    public List<BrakeReleases.StoredRelease> brakeReleases(@PathParam("table") String table) {
        return releases.of(parse(table, "list brake releases"), 50);
    }

    /**
     * Lets the table's next remove_orphan_files run delete more than the share brake allows; one
     * run uses it up, and an unused release lapses after {@link BrakeReleases#VALIDITY}.
     */
    @POST
    @Path("brake-release")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(Roles.OPERATOR)
    public Response releaseBrake(@PathParam("table") String table, ReleaseRequest request) {
        TableId id = parse(table, "release the orphan brake");
        if (request == null || request.reason() == null || request.reason().isBlank()
                || request.reason().length() > MAX_REASON_LENGTH) {
            throw CryoException.invalid("Cannot release the orphan brake of " + id + ": send {\"reason\": \"why\"} with"
                    + " a reason of 1 to " + MAX_REASON_LENGTH + " characters, so the audit log says why");
        }
        nativeEngine.load(id);
        BrakeReleases.StoredRelease release = releases.release(id, Actors.of(identity), request.reason().strip());
        Log.warnf("%s released the orphan share brake of %s for its next run (until %s): %s", release.operator(), id,
                release.expiresAt(), release.reason());
        return Response.status(Response.Status.CREATED).entity(release).build();
    }

    private static TableId parse(String table, String action) {
        try {
            return TableId.parse(table);
        } catch (IllegalArgumentException e) {
            throw CryoException.invalid("Cannot " + action + ": " + e.getMessage());
        }
    }
}
