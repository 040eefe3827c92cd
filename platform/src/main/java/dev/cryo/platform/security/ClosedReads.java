package dev.cryo.platform.security;

import dev.cryo.platform.error.CommonErrorCode;
import dev.cryo.platform.rest.ErrorResponse;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.annotation.Priority;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.Provider;

/**
 * {@code cryo.security.open-reads=false}: every request to a service's API ({@code /api/...})
 * needs a viewer's or an operator's token, reads included (grades, plans, orphan listings, audit
 * exports, dead-letter payloads). Without a token the answer is 401, with a token of no Cryo role
 * 403. Health and metrics under {@code /q} stay open for probes and scrapers. With open reads (the
 * default) nothing changes: state changes are operator-only either way ({@code @RolesAllowed}).
 */
@Provider
@Priority(Priorities.AUTHORIZATION)
public class ClosedReads implements ContainerRequestFilter {

    /** Looked up per request: a JAX-RS provider is made before the configuration mappings are ready. */
    @Inject
    Instance<SecurityConfig> config;

    @Inject
    SecurityIdentity identity;

    @Override
    public void filter(ContainerRequestContext request) {
        if (config.get().openReads()) {
            return;
        }
        String path = request.getUriInfo().getPath();
        if (!path.startsWith("/api/") && !path.startsWith("api/")) {
            return;
        }
        if (identity.isAnonymous()) {
            request.abortWith(refusal(CommonErrorCode.UNAUTHENTICATED, "Cannot read " + path + " without a token: reads"
                    + " are closed here (cryo.security.open-reads=false); send Authorization: Bearer <a viewer's or an"
                    + " operator's token>")
                    .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"cryo\"").build());
        } else if (!identity.hasRole(Roles.VIEWER)) {
            request.abortWith(refusal(CommonErrorCode.FORBIDDEN, "Cannot read " + path + ": "
                    + identity.getPrincipal().getName() + " is neither a viewer nor an operator").build());
        }
    }

    private static Response.ResponseBuilder refusal(CommonErrorCode code, String message) {
        return Response.status(code.httpStatus()).type(MediaType.APPLICATION_JSON_TYPE)
                .entity(new ErrorResponse(code.name(), code.type().name(), message));
    }
}
