package dev.cryo.contracts;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryo.contracts.cloudevents.EventType;
import dev.cryo.contracts.json.EventJson;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** Loads the checked-in golden samples and schemas. */
final class GoldenSamples {

    static byte[] sampleBytes(EventType type) {
        return resource("golden/" + type.id() + ".json");
    }

    static JsonNode sample(EventType type) {
        return tree(sampleBytes(type));
    }

    static byte[] schemaBytes(EventType type) {
        return resource(type.schemaResource());
    }

    static JsonNode tree(byte[] json) {
        try {
            return EventJson.mapper().readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] resource(String name) {
        try (InputStream in = GoldenSamples.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private GoldenSamples() {
    }
}
