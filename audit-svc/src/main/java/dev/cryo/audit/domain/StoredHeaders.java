package dev.cryo.audit.domain;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * A record's headers as the audit stores them: a JSON array of {@code {"name", "value"}} in their
 * order, with a header that is not UTF-8 text (or holds a NUL) kept as {@code base64}, so a
 * re-published record carries exactly the bytes that were published.
 */
public final class StoredHeaders {

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    /** The headers in their order: UTF-8 text as {@code value}, anything else as {@code base64}. */
    public static String toJson(RawRecord raw) {
        ArrayNode array = JSON.createArrayNode();
        for (RecordHeader header : raw.headers()) {
            ObjectNode node = array.addObject();
            node.put("name", header.name());
            byte[] value = header.value();
            if (value == null) {
                node.putNull("value");
            } else {
                String text = header.text();
                if (text != null && text.indexOf('\u0000') < 0) {
                    node.put("value", text);
                } else {
                    node.put("base64", Base64.getEncoder().encodeToString(value));
                }
            }
        }
        try {
            return JSON.writeValueAsString(array);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Cannot write the headers of " + raw.coordinates() + " as JSON", e);
        }
    }

    /** The headers back from {@link #toJson}, for re-publication. */
    public static List<RecordHeader> fromJson(String json) {
        try {
            List<RecordHeader> headers = new ArrayList<>();
            for (JsonNode node : JSON.readTree(json)) {
                String name = node.path("name").asText();
                if (node.hasNonNull("base64")) {
                    headers.add(new RecordHeader(name, Base64.getDecoder().decode(node.get("base64").asText())));
                } else if (node.hasNonNull("value")) {
                    headers.add(new RecordHeader(name, node.get("value").asText().getBytes(StandardCharsets.UTF_8)));
                } else {
                    headers.add(new RecordHeader(name, null));
                }
            }
            return headers;
        } catch (IOException e) {
            throw new IllegalArgumentException("Cannot read stored headers: " + e.getMessage(), e);
        }
    }

    private StoredHeaders() {
    }
}
