package dev.cryo.platform.rest;

import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/**
 * Takes precedence over Quarkus's own mapper of {@link MismatchedInputException} (which answers in a
 * different form), so a wrong field type or an unknown field gets Cryo's error body and message.
 */
@Provider
@Priority(Priorities.USER - 100)
public class MismatchedBodyExceptionMapper implements ExceptionMapper<MismatchedInputException> {

    @Override
    public Response toResponse(MismatchedInputException exception) {
        return JsonBodyExceptionMapper.badBody(exception);
    }
}
