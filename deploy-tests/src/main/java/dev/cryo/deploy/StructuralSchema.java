package dev.cryo.deploy;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Validates an object against the OpenAPI v3 schema of a CustomResourceDefinition version the way
 * the API server's strict field validation does: unknown fields (where the schema does not preserve
 * them), wrong types, missing required fields and values outside an enum are errors.
 *
 * @param kind the custom resource's kind, for messages
 * @param schema the version's {@code schema.openAPIV3Schema}
 */
public record StructuralSchema(String kind, JsonNode schema) {

    public StructuralSchema {
        requireNonNull(kind, "kind is null");
        requireNonNull(schema, "schema is null");
    }

    /** The schema of one served version of a CRD document. */
    public static StructuralSchema of(JsonNode customResourceDefinition, String version) {
        String kind = customResourceDefinition.path("spec").path("names").path("kind").asText();
        for (JsonNode candidate : customResourceDefinition.path("spec").path("versions")) {
            if (candidate.path("name").asText().equals(version)) {
                return new StructuralSchema(kind, candidate.path("schema").path("openAPIV3Schema"));
            }
        }
        throw new IllegalArgumentException("Cannot find version " + version + " of the CRD for " + kind);
    }

    /** The problems of an object; empty when it is valid. */
    public List<String> problems(JsonNode object) {
        List<String> problems = new ArrayList<>();
        validate(object, schema, "", problems);
        return problems;
    }

    private void validate(JsonNode value, JsonNode schema, String path, List<String> problems) {
        if (value.isNull() && schema.path("nullable").asBoolean(false)) {
            return;
        }
        if (schema.path("x-kubernetes-int-or-string").asBoolean(false)) {
            if (!value.isIntegralNumber() && !value.isTextual()) {
                problems.add(at(path) + " must be an integer or a string");
            }
            return;
        }
        String type = schema.path("type").asText("");
        switch (type) {
            case "object" -> object(value, schema, path, problems);
            case "array" -> {
                if (!value.isArray()) {
                    problems.add(at(path) + " must be a list");
                    return;
                }
                for (int i = 0; i < value.size(); i++) {
                    validate(value.get(i), schema.path("items"), path + "[" + i + "]", problems);
                }
            }
            case "string" -> {
                if (!value.isTextual()) {
                    problems.add(at(path) + " must be a string, not " + value);
                } else {
                    enumeration(value, schema, path, problems);
                }
            }
            case "integer" -> {
                if (!value.isIntegralNumber()) {
                    problems.add(at(path) + " must be an integer, not " + value);
                }
            }
            case "number" -> {
                if (!value.isNumber()) {
                    problems.add(at(path) + " must be a number, not " + value);
                }
            }
            case "boolean" -> {
                if (!value.isBoolean()) {
                    problems.add(at(path) + " must be true or false, not " + value);
                }
            }
            default -> {
                // no type: the schema leaves the value open (x-kubernetes-preserve-unknown-fields)
            }
        }
    }

    private void object(JsonNode value, JsonNode schema, String path, List<String> problems) {
        if (!value.isObject()) {
            problems.add(at(path) + " must be an object, not " + value);
            return;
        }
        JsonNode properties = schema.path("properties");
        JsonNode additional = schema.path("additionalProperties");
        boolean preserve = schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
        for (Iterator<Map.Entry<String, JsonNode>> fields = value.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            String child = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
            if (path.isEmpty() && field.getKey().equals("metadata")) {
                // ObjectMeta is validated by the API server itself, not by the CRD's schema
                continue;
            }
            if (properties.has(field.getKey())) {
                validate(field.getValue(), properties.get(field.getKey()), child, problems);
            } else if (additional.isObject()) {
                validate(field.getValue(), additional, child, problems);
            } else if (!preserve && !additional.asBoolean(false)) {
                problems.add(kind + ": unknown field " + child);
            }
        }
        for (JsonNode required : schema.path("required")) {
            if (!value.has(required.asText())) {
                problems.add(kind + ": " + (path.isEmpty() ? "" : path + ".") + required.asText() + " is required");
            }
        }
    }

    private void enumeration(JsonNode value, JsonNode schema, String path, List<String> problems) {
        JsonNode allowed = schema.path("enum");
        if (allowed.isArray() && !allowed.isEmpty()) {
            for (JsonNode candidate : allowed) {
                if (candidate.asText().equals(value.asText())) {
                    return;
                }
            }
            problems.add(at(path) + " is " + value + ", not one of " + allowed);
        }
    }

    private String at(String path) {
        return kind + ": " + (path.isEmpty() ? "the object" : path);
    }
}
