package dev.cryo.console.web;

import dev.cryo.console.domain.Notice;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.Cookie;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriBuilder;
import jakarta.ws.rs.ext.Provider;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * {@code cryo.security.open-reads=false}, the same setting the services read: the console shows
 * its pages only to a signed-in operator, or it would hand its own read token's view to anyone.
 * Every page but the sign-in form redirects there; its live fragments answer 401. Static assets
 * and health are not pages and stay open.
 */
@Provider
@Priority(Priorities.AUTHENTICATION)
public class ClosedReads implements ContainerRequestFilter {

    @Inject
    OperatorSession session;

    @Override
    public void filter(ContainerRequestContext request) {
        // read per request: a JAX-RS provider is made before the runtime configuration is
        boolean openReads = ConfigProvider.getConfig().getOptionalValue("cryo.security.open-reads", Boolean.class)
                .orElse(true);
        if (openReads || !HttpMethod.GET.equals(request.getMethod())) {
            return;
        }
        String path = request.getUriInfo().getPath();
        if (path.equals("/login") || path.equals("login")) {
            return;
        }
        Cookie cookie = request.getCookies().get(OperatorSession.COOKIE);
        if (cookie != null && session.token(cookie.getValue()).isPresent()) {
            return;
        }
        if (path.startsWith("/live/") || path.startsWith("live/")) {
            request.abortWith(Response.status(Response.Status.UNAUTHORIZED).entity(Notice.READS_CLOSED.text(null)).build());
            return;
        }
        String next = Tables.localPath(path.startsWith("/") ? path : "/" + path);
        request.abortWith(Response.seeOther(UriBuilder.fromPath("/login").queryParam("next", next)
                .queryParam("notice", Notice.READS_CLOSED.id()).build()).build());
    }
}
