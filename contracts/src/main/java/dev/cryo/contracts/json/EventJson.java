package dev.cryo.contracts.json;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.cryo.contracts.event.CryoEvent;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The one JSON mapping of Cryo events: unknown fields are ignored (a v1 payload may gain
 * optional fields), absent optional fields are omitted, times are ISO-8601 text, durations
 * ISO-8601 ({@code PT1.5S}).
 */
public final class EventJson {

    private static final ObjectMapper MAPPER = configure(JsonMapper.builder()).build();

    /** Applies Cryo's settings to a mapper builder (services use it for their REST mapper too). */
    public static JsonMapper.Builder configure(JsonMapper.Builder builder) {
        return builder
                .addModule(new JavaTimeModule())
                .addModule(new Jdk8Module())
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
                .disable(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE)
                .disable(MapperFeature.AUTO_DETECT_IS_GETTERS)
                .serializationInclusion(JsonInclude.Include.NON_NULL);
    }

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    public static byte[] write(CryoEvent event) {
        try {
            return MAPPER.writeValueAsBytes(event);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Cannot serialize " + event.getClass().getSimpleName() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads a payload.
     *
     * @throws MalformedEventException when the bytes are not valid JSON of that type or break its invariants
     */
    public static <T extends CryoEvent> T read(byte[] json, Class<T> type) {
        try {
            T event = MAPPER.readValue(json, type);
            if (event == null) {
                throw new MalformedEventException("Cannot read " + type.getSimpleName() + ": the payload is JSON null");
            }
            return event;
        } catch (IOException e) {
            throw new MalformedEventException("Cannot read " + type.getSimpleName() + ": " + rootMessage(e), e);
        }
    }

    public static String writeString(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String rootMessage(Throwable error) {
        Throwable cause = error;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        String message = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
        // Jackson appends the source location on new lines; the first line says what is wrong.
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }

    private EventJson() {
    }
}
