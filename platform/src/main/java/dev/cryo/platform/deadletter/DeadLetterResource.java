package dev.cryo.platform.deadletter;

import dev.cryo.platform.error.CryoException;
import dev.cryo.platform.security.Actors;
import dev.cryo.platform.security.Roles;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.util.List;

/**
 * Every service's dead letters: {@code GET /api/v1/dead-letters} lists them (open, like every read),
 * {@code POST /api/v1/dead-letters/redrive} publishes them again on their original topic (operators only).
 */
@Path("/api/v1/dead-letters")
@Produces(MediaType.APPLICATION_JSON)
public class DeadLetterResource {

    static final int DEFAULT_LIMIT = 100;
    static final int MAX_LIMIT = 1000;

    private final DeadLetters deadLetters;
    private final SecurityIdentity identity;

    DeadLetterResource(DeadLetters deadLetters, SecurityIdentity identity) {
        this.deadLetters = deadLetters;
        this.identity = identity;
    }

    /**
     * The topic and its newest dead letters.
     *
     * @param topic this service's dead-letter topic
     * @param deadLetters newest first
     */
    public record DeadLetterPage(String topic, List<DeadLetter> deadLetters) {
    }

    @GET
    public DeadLetterPage list(@QueryParam("limit") Integer limit) {
        int count = limit == null ? DEFAULT_LIMIT : limit;
        if (count < 1 || count > MAX_LIMIT) {
            throw CryoException.invalid("Cannot list dead letters: limit must be 1 to " + MAX_LIMIT + ", not " + count);
        }
        return new DeadLetterPage(deadLetters.topic(), deadLetters.list(count));
    }

    @POST
    @Path("/redrive")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(Roles.OPERATOR)
    public List<Redrive> redrive(RedriveRequest request) {
        boolean all = request != null && Boolean.TRUE.equals(request.all());
        List<String> ids = request == null || request.ids() == null ? List.of() : request.ids();
        if (all && !ids.isEmpty()) {
            throw CryoException.invalid("Cannot re-drive dead letters: give either \"ids\" or \"all\": true, not both");
        }
        return deadLetters.redrive(ids, all ? DeadLetters.RedriveScope.ALL_WAITING : DeadLetters.RedriveScope.LISTED,
                Actors.of(identity));
    }
}
