package dev.cryo.console.web;

import dev.cryo.console.client.ServiceException;
import dev.cryo.console.domain.InvalidInputException;
import io.quarkus.logging.Log;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** Errors as pages that say what went wrong, never a stack trace. */
public class ErrorPages {

    private final Layouts layouts;

    ErrorPages(Layouts layouts) {
        this.layouts = layouts;
    }

    @ServerExceptionMapper
    public Response invalidInput(InvalidInputException error) {
        return page(Response.Status.BAD_REQUEST.getStatusCode(), error.getMessage());
    }

    /** A service that a page could not do without (the others show their problem in place). */
    @ServerExceptionMapper
    public Response serviceFailed(ServiceException error) {
        Log.warnf("%s", error.describe());
        return page(Response.Status.BAD_GATEWAY.getStatusCode(), error.describe());
    }

    @ServerExceptionMapper
    public Response web(WebApplicationException error) {
        int status = error.getResponse().getStatus();
        String message = switch (status) {
            case 404 -> "Cannot find this page: the console has the fleet (/), table pages (/tables/<table>) and the queue (/queue)";
            // quarkus-rest-csrf refuses forms without a valid token with 400
            case 400 -> "Cannot accept this form: it is missing its CSRF token or the token expired; reload the page and try again";
            case 405 -> "Cannot do that with this address: use the buttons on the pages";
            case 415 -> "Cannot accept this request: actions take HTML forms";
            default -> "Cannot serve this request: " + error.getResponse().getStatusInfo().getReasonPhrase();
        };
        return page(status, message);
    }

    @ServerExceptionMapper
    public Response unexpected(RuntimeException error) {
        Log.errorf(error, "Cannot render a console page");
        return page(Response.Status.INTERNAL_SERVER_ERROR.getStatusCode(), "Cannot show this page: "
                + error.getClass().getSimpleName() + (error.getMessage() == null ? "" : ": " + error.getMessage()
                .lines().findFirst().orElse("")) + " (the console's log has the details)");
    }

    private Response page(int status, String message) {
        Layout layout = layouts.of("Error " + status, "error", null, null, null);
        return Response.status(status).type(MediaType.TEXT_HTML_TYPE)
                .entity(Pages.error(layout, status, message).render()).build();
    }
}
