package dev.cryo.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * One Kubernetes object of a rendered set of manifests, as the JSON tree it was written as.
 *
 * @param apiVersion as written, e.g. {@code apps/v1}
 * @param kind as written, e.g. {@code Deployment}
 * @param name {@code metadata.name}
 * @param body the whole object
 */
public record Manifest(String apiVersion, String kind, String name, JsonNode body) {

    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    public Manifest {
        requireNonNull(apiVersion, "apiVersion is null");
        requireNonNull(kind, "kind is null");
        requireNonNull(name, "name is null");
        requireNonNull(body, "body is null");
    }

    /** Every document of a multi-document YAML stream; empty documents are skipped. */
    public static List<Manifest> parseAll(String yaml) {
        List<Manifest> manifests = new ArrayList<>();
        try (var documents = YAML.readerFor(JsonNode.class).<JsonNode>readValues(yaml)) {
            while (documents.hasNext()) {
                JsonNode document = documents.next();
                if (document == null || document.isNull() || document.isMissingNode() || document.isEmpty()) {
                    continue;
                }
                manifests.add(new Manifest(document.path("apiVersion").asText(""), document.path("kind").asText(""),
                        document.path("metadata").path("name").asText(""), document));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot parse the manifests as YAML: " + e.getMessage(), e);
        }
        return manifests;
    }

    /** {@code Kind/name}, as kubectl names an object. */
    public String reference() {
        return kind + "/" + name;
    }

    /** A label of the object's own metadata, or empty. */
    public String label(String key) {
        return body.path("metadata").path("labels").path(key).asText("");
    }
}
