package dev.cryo.platform.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/**
 * Quarkus answers a body that is not JSON at all with a bare 400 (a {@link WebApplicationException}
 * around the parser's error); this gives it Cryo's error body that says so. Every other
 * {@code WebApplicationException} keeps the answer it carries.
 */
@Provider
public class UnreadableBodyExceptionMapper implements ExceptionMapper<WebApplicationException> {

    @Override
    public Response toResponse(WebApplicationException exception) {
        if (exception.getCause() instanceof JsonProcessingException json) {
            return JsonBodyExceptionMapper.badBody(json);
        }
        return exception.getResponse();
    }
}
