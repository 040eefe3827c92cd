package dev.cryo.scanner.rest;

import dev.cryo.platform.error.CryoException;
import dev.cryo.platform.security.Actors;
import dev.cryo.platform.security.Roles;
import dev.cryo.scanner.watch.Sweeps;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * "Sweep now": an operator asks for a scan of every table, of one catalog or of one namespace,
 * without waiting for {@code cryo.scanner.sweep-interval}. Each table's scan is an ordinary sweep
 * (the cooldown applies to its plans); the operator is recorded as the actor of each change.
 */
@Path("/api/v1/sweeps")
public class SweepResource {

    /** Longer names are not a namespace anyone has. */
    static final int MAX_NAME_LENGTH = 1000;

    /**
     * @param catalog one catalog (absent: every catalog)
     * @param namespace one namespace of it, with the namespaces under it (needs {@code catalog})
     */
    public record SweepRequest(String catalog, String namespace) {
    }

    /**
     * @param tables tables whose scan was asked for
     * @param catalogs the same per catalog
     * @param failures catalogs that could not be listed (a whole-fleet sweep goes on without them)
     * @param requestedBy the operator
     * @param requestedAt when
     */
    public record SweepAccepted(int tables, Map<String, Integer> catalogs, List<String> failures, String requestedBy,
                                Instant requestedAt) {
    }

    private final Sweeps sweeps;
    private final SecurityIdentity identity;

    SweepResource(Sweeps sweeps, SecurityIdentity identity) {
        this.sweeps = sweeps;
        this.identity = identity;
    }

    @POST
    @RolesAllowed(Roles.OPERATOR)
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response sweep(SweepRequest request) {
        Optional<String> catalog = Optional.ofNullable(request).map(SweepRequest::catalog).map(String::strip)
                .filter(name -> !name.isEmpty());
        Optional<String> namespace = Optional.ofNullable(request).map(SweepRequest::namespace).map(String::strip)
                .filter(name -> !name.isEmpty());
        catalog.ifPresent(name -> validName("catalog", name));
        namespace.ifPresent(name -> validName("namespace", name));
        if (namespace.isPresent() && catalog.isEmpty()) {
            throw CryoException.invalid("Cannot sweep namespace '" + namespace.get() + "': name its catalog too, "
                    + "{\"catalog\": \"lake\", \"namespace\": \"" + namespace.get() + "\"}");
        }
        String actor = Actors.of(identity);
        Sweeps.Swept swept = sweeps.sweep(catalog, namespace, actor);
        return Response.accepted(new SweepAccepted(swept.tables(), swept.byCatalog(), swept.failures(), actor,
                swept.requestedAt())).build();
    }

    private static void validName(String what, String name) {
        if (name.length() > MAX_NAME_LENGTH || name.chars().anyMatch(Character::isISOControl)) {
            throw CryoException.invalid("Cannot sweep: the " + what + " must be at most " + MAX_NAME_LENGTH
                    + " printable characters");
        }
    }
}
