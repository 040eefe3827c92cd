package dev.cryo.platform;

import dev.cryo.platform.security.Actors;
import dev.cryo.platform.security.Roles;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;

/** A read that anyone may do and a change that needs an operator, as services declare them. */
@Path("/api/v1/test-guarded")
public class GuardedResource {

    @Inject
    SecurityIdentity identity;

    @GET
    public String read() {
        return Actors.of(identity);
    }

    @POST
    @RolesAllowed(Roles.OPERATOR)
    public String change() {
        return Actors.of(identity);
    }
}
