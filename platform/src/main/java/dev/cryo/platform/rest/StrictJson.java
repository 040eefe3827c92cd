package dev.cryo.platform.rest;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;

/**
 * Request bodies are strict: a field an endpoint does not know is refused (400, naming it) instead of
 * being silently dropped, so a typo such as {@code "cooldwon"} never looks like a successful change.
 * Events are not affected: they are read by contracts' own mapper, which ignores unknown fields as the
 * versioning rules require.
 */
@Singleton
public class StrictJson implements ObjectMapperCustomizer {

    @Override
    public void customize(ObjectMapper mapper) {
        mapper.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    }
}
