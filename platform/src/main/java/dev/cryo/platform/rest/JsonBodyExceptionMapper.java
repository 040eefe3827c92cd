package dev.cryo.platform.rest;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import dev.cryo.platform.error.CommonErrorCode;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

import java.util.stream.Collectors;

/**
 * A request body that is not the JSON an endpoint takes gets a 400 that says what is wrong with it
 * (not JSON, an unknown field, a value of the wrong type), in the same {@link ErrorResponse} form as
 * every other error. The text the caller sent is quoted at most in part, so a huge or hostile body is
 * not echoed back.
 */
@Provider
public class JsonBodyExceptionMapper implements ExceptionMapper<JsonProcessingException> {

    static final int MAX_QUOTED_CHARACTERS = 80;

    @Override
    public Response toResponse(JsonProcessingException exception) {
        return badBody(exception);
    }

    static Response badBody(JsonProcessingException exception) {
        return Response.status(Response.Status.BAD_REQUEST)
                .type(MediaType.APPLICATION_JSON_TYPE)
                .entity(new ErrorResponse(CommonErrorCode.INVALID_REQUEST.name(), CommonErrorCode.INVALID_REQUEST.type().name(),
                        "Cannot read the request body: " + reason(exception)))
                .build();
    }

    static String reason(JsonProcessingException exception) {
        if (exception instanceof UnrecognizedPropertyException unknown) {
            String known = unknown.getKnownPropertyIds() == null ? "" : unknown.getKnownPropertyIds().stream()
                    .map(Object::toString).sorted().collect(Collectors.joining(", "));
            return "unknown field '" + shorten(unknown.getPropertyName()) + "'" + (known.isEmpty() ? "" : " (known fields: " + known + ")");
        }
        for (Throwable cause = exception; cause != null; cause = cause.getCause()) {
            if (cause instanceof StreamConstraintsException limit) {
                return "a name, string or number in it is too long (" + shorten(limit.getOriginalMessage()) + ")";
            }
            if (cause instanceof JsonParseException parse) {
                return "it is not valid JSON (" + shorten(parse.getOriginalMessage()) + ")";
            }
        }
        if (exception instanceof InvalidFormatException format) {
            return "field '" + path(format) + "' has a value of the wrong form: " + shorten(String.valueOf(format.getValue()))
                    + " is not a " + jsonType(format.getTargetType());
        }
        if (exception instanceof MismatchedInputException mismatch) {
            String path = path(mismatch);
            return (path.isEmpty() ? "the body" : "field '" + path + "'") + " is not a " + jsonType(mismatch.getTargetType());
        }
        if (exception instanceof JsonMappingException mapping && !path(mapping).isEmpty()) {
            Throwable cause = mapping.getCause();
            return "field '" + path(mapping) + "' is invalid" + (cause == null ? "" : ": " + shorten(cause.getMessage()));
        }
        return shorten(exception.getOriginalMessage());
    }

    /** The JSON name of what a Java type is read from. */
    static String jsonType(Class<?> type) {
        if (type == null) {
            return "value of the expected type";
        }
        if (java.util.Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "JSON array";
        }
        if (java.util.Map.class.isAssignableFrom(type) || type.isRecord()) {
            return "JSON object";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "boolean";
        }
        if (Number.class.isAssignableFrom(type) || (type.isPrimitive() && type != char.class)) {
            return "number";
        }
        if (CharSequence.class.isAssignableFrom(type)) {
            return "string";
        }
        return type.getSimpleName();
    }

    private static String path(JsonMappingException exception) {
        return exception.getPath().stream()
                .map(reference -> reference.getFieldName() != null ? reference.getFieldName() : "[" + reference.getIndex() + "]")
                .collect(Collectors.joining("."));
    }

    private static String shorten(String text) {
        if (text == null) {
            return "";
        }
        String line = text.replaceAll("\\p{Cntrl}", " ");
        return line.length() > MAX_QUOTED_CHARACTERS ? line.substring(0, MAX_QUOTED_CHARACTERS) + "…" : line;
    }
}
