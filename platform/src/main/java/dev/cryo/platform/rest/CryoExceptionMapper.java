package dev.cryo.platform.rest;

import dev.cryo.platform.error.CryoException;
import dev.cryo.platform.error.ErrorType;
import io.quarkus.logging.Log;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** Maps {@link CryoException} to its HTTP status with an {@link ErrorResponse} body. */
@Provider
public class CryoExceptionMapper implements ExceptionMapper<CryoException> {

    @Override
    public Response toResponse(CryoException exception) {
        if (exception.code().type() == ErrorType.INTERNAL) {
            Log.error("Internal error answering a request", exception);
        }
        return Response.status(exception.code().httpStatus())
                .type(MediaType.APPLICATION_JSON_TYPE)
                .entity(new ErrorResponse(exception.code().name(), exception.code().type().name(), exception.getMessage()))
                .build();
    }
}
