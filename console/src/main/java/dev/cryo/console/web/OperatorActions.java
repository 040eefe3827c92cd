package dev.cryo.console.web;

import dev.cryo.console.client.GovernorApi.Pause;
import dev.cryo.console.client.GovernorApi.PauseRequest;
import dev.cryo.console.client.GovernorApi.PolicyRequest;
import dev.cryo.console.client.ScannerApi.ChangeAccepted;
import dev.cryo.console.client.ScannerApi.ScanRequest;
import dev.cryo.console.client.ServiceException;
import dev.cryo.console.client.Services;
import dev.cryo.console.domain.InvalidInputException;
import dev.cryo.console.domain.Notice;
import dev.cryo.console.domain.PolicyEdit;
import io.quarkus.logging.Log;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriBuilder;
import jakarta.ws.rs.core.UriInfo;

import java.net.URI;
import java.util.Optional;
import java.util.function.Function;

/**
 * What an operator can do: sign in and out, fix now, pause, resume, edit the table's policy. Every form
 * carries the CSRF token (quarkus-rest-csrf refuses a form without it), every action needs a session,
 * and each goes to its service with the operator's token, which records the operator as the actor.
 */
@Path("/")
@Produces(MediaType.TEXT_HTML)
@Consumes(MediaType.APPLICATION_FORM_URLENCODED)
public class OperatorActions {

    /** Longest pause reason the form accepts (the governor's own limit may be lower and answers why). */
    static final int MAX_REASON_LENGTH = 500;

    private final Services services;
    private final OperatorSession session;
    private final ConsoleViews views;
    private final Layouts layouts;
    private final Governance governance;

    @Context
    UriInfo uri;

    OperatorActions(Services services, OperatorSession session, ConsoleViews views, Layouts layouts,
                    Governance governance) {
        this.services = services;
        this.session = session;
        this.views = views;
        this.layouts = layouts;
        this.governance = governance;
    }

    /**
     * Checks the token before keeping it: the scanner is asked for a scan of no table, which an operator's
     * token gets refused as invalid input (400), a viewer's as forbidden (403) and an unknown one as
     * unauthenticated (401). Nothing is scanned or published either way.
     */
    @POST
    @Path("login")
    public Response login(@FormParam("token") String token, @FormParam("next") String next) {
        String target = Tables.localPath(next);
        String trimmed = token == null ? "" : token.trim();
        if (!OperatorSession.wellFormed(trimmed)) {
            return loginFailed(target, "Cannot sign in: a token is 16 to 512 printable characters without spaces "
                    + "(an entry of CRYO_SECURITY_TOKENS is principal=role:token; paste only the token)");
        }
        try {
            services.scanner(api -> api.scan("Bearer " + trimmed, new ScanRequest(null)));
            return loginFailed(target, "Cannot sign in: the scanner accepted a scan of no table, so the console "
                    + "cannot tell whether this token is an operator's");
        } catch (ServiceException e) {
            if (e.kind() == ServiceException.Kind.REFUSED && e.status() == 400) {
                Log.info("An operator signed in to the console");
                return Response.seeOther(withNotice(URI.create(target), Notice.SIGNED_IN, null))
                        .cookie(session.signIn(trimmed, secure())).build();
            }
            if (e.kind() == ServiceException.Kind.REFUSED && e.status() == 401) {
                return loginFailed(target, "Cannot sign in: the services do not know this token "
                        + "(tokens come from CRYO_SECURITY_TOKENS where the services run)");
            }
            if (e.kind() == ServiceException.Kind.REFUSED && e.status() == 403) {
                return loginFailed(target, "Cannot sign in: this is a viewer's token; actions need an operator's");
            }
            return loginFailed(target, "Cannot sign in: the token cannot be checked now: " + e.describe());
        }
    }

    @POST
    @Path("logout")
    public Response logout() {
        return Response.seeOther(withNotice(URI.create("/"), Notice.SIGNED_OUT, null))
                .cookie(session.signOut(secure())).build();
    }

    /** Fix now: a scan of the table now, on behalf of the operator; the grade, plan and job follow. */
    @POST
    @Path("tables/{table}/fix")
    public Response fix(@PathParam("table") String table, @CookieParam(OperatorSession.COOKIE) String cookie) {
        String id = Tables.valid(table);
        return onTable(id, cookie, "Cannot fix " + id + " now", Notice.FIX_REQUESTED, authorization -> {
            ChangeAccepted accepted = services.scanner(api -> api.scan(authorization, new ScanRequest(id)));
            Log.infof("Fix now requested for %s: change %s", id, accepted.eventId());
            return accepted.eventId();
        });
    }

    @POST
    @Path("tables/{table}/pause")
    public Response pause(@PathParam("table") String table, @FormParam("reason") String reason,
                          @CookieParam(OperatorSession.COOKIE) String cookie) {
        String id = Tables.valid(table);
        return onTable(id, cookie, "Cannot pause " + id, Notice.PAUSED, authorization -> {
            String why = reason == null ? "" : reason.strip();
            if (why.isEmpty() || why.length() > MAX_REASON_LENGTH) {
                throw new InvalidInputException("Cannot pause " + id + ": give a reason of 1 to " + MAX_REASON_LENGTH
                        + " characters, so other operators know why the table waits");
            }
            Pause pause = services.governor(api -> api.pause(authorization, new PauseRequest(id, why)));
            governance.forget(id);
            return pause.id();
        });
    }

    /** Resumes the pause that holds the table (which may be a pattern that holds other tables too). */
    @POST
    @Path("tables/{table}/resume")
    public Response resume(@PathParam("table") String table, @FormParam("pause") String pauseId,
                           @CookieParam(OperatorSession.COOKIE) String cookie) {
        String id = Tables.valid(table);
        return onTable(id, cookie, "Cannot resume " + id, Notice.RESUMED, authorization -> {
            if (pauseId == null || pauseId.isBlank() || pauseId.length() > 200) {
                throw new InvalidInputException("Cannot resume " + id + ": the form names no pause; reload the page");
            }
            services.governor(api -> {
                api.resume(authorization, pauseId.trim());
                return null;
            });
            governance.forget(id);
            return pauseId.trim();
        });
    }

    /** Sets the table's own governor policy (the pattern that is exactly its id). */
    @POST
    @Path("tables/{table}/policy")
    public Response policy(@PathParam("table") String table, @FormParam("cooldown") String cooldown,
                           @FormParam("windows") String windows, @FormParam("engine") String engine,
                           @CookieParam(OperatorSession.COOKIE) String cookie) {
        String id = Tables.valid(table);
        return onTable(id, cookie, "Cannot save the policy of " + id, Notice.POLICY_SAVED, authorization -> {
            PolicyEdit edit = PolicyEdit.parse(cooldown, windows, engine);
            services.governor(api -> api.setPolicy(authorization, id,
                    new PolicyRequest(edit.cooldown(), edit.windows(), edit.engine())));
            governance.forget(id);
            return id;
        });
    }

    @POST
    @Path("tables/{table}/policy/remove")
    public Response removePolicy(@PathParam("table") String table, @CookieParam(OperatorSession.COOKIE) String cookie) {
        String id = Tables.valid(table);
        return onTable(id, cookie, "Cannot remove the policy of " + id, Notice.POLICY_REMOVED, authorization -> {
            services.governor(api -> {
                api.removePolicy(authorization, id);
                return null;
            });
            governance.forget(id);
            return id;
        });
    }

    /**
     * One operator action on a table: without a session, the sign-in page first; otherwise {@code action}
     * on the operator's behalf (it returns the reference the notice names), then the table page with
     * {@code done}, or with the service's refusal on top, prefixed by {@code failure}.
     */
    private Response onTable(String id, String cookie, String failure, Notice done, Function<String, String> action) {
        Optional<String> authorization = session.authorization(cookie);
        if (authorization.isEmpty()) {
            return signInFirst(id);
        }
        try {
            String reference = action.apply(authorization.get());
            return Response.seeOther(withNotice(tablePath(id), done, reference)).build();
        } catch (ServiceException e) {
            return failed(id, cookie, failure + ": " + e.describe(), e);
        }
    }

    private Response signInFirst(String table) {
        URI login = UriBuilder.fromPath("/login").queryParam("next", tablePath(table).toString()).build();
        return Response.seeOther(login).build();
    }

    private Response loginFailed(String next, String message) {
        Layout layout = layouts.of("Sign in", "login", null, null, null).withAlert(message);
        return Response.status(Response.Status.UNAUTHORIZED).entity(Pages.login(layout, next)).build();
    }

    /** The table page again, with what went wrong on top; the status is the service's refusal, or 502. */
    private Response failed(String table, String cookie, String message, ServiceException error) {
        Log.warnf("%s", message);
        int status = error.kind() == ServiceException.Kind.REFUSED && error.status() >= 400 && error.status() < 500
                ? error.status() : Response.Status.BAD_GATEWAY.getStatusCode();
        Layout layout = layouts.of(table, "table", cookie, null, null).withAlert(message);
        return Response.status(status).entity(Pages.table(layout, views.table(table))).build();
    }

    private static URI tablePath(String table) {
        return UriBuilder.fromPath("/tables/{table}").build(table);
    }

    private static URI withNotice(URI target, Notice notice, String reference) {
        UriBuilder builder = UriBuilder.fromUri(target).replaceQueryParam("notice", notice.id());
        if (reference != null) {
            builder.replaceQueryParam("ref", reference);
        }
        return builder.build();
    }

    /** Whether the browser reached the console over HTTPS: the session cookie is then marked Secure. */
    private boolean secure() {
        return "https".equalsIgnoreCase(uri.getRequestUri().getScheme());
    }
}
