package dev.cryo.scanner.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.ChangeSource;
import dev.cryo.contracts.event.TableChanged;
import dev.cryo.contracts.json.EventJson;
import dev.cryo.platform.error.CryoException;
import dev.cryo.scanner.ScannerErrorCode;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * Reads a webhook body ({@code {catalog, namespace, table, snapshotId?}}; unknown fields are ignored)
 * into a TableChanged, or refuses it with a {@link CryoException} that says why. Pure: no framework, so
 * it is fuzzed directly (NotificationParserPropertiesTest).
 */
final class NotificationParser {

    private final int maxBytes;
    private final Set<String> catalogs;

    NotificationParser(int maxBytes, Set<String> catalogs) {
        this.maxBytes = maxBytes;
        this.catalogs = Set.copyOf(requireNonNull(catalogs, "catalogs is null"));
    }

    TableChanged parse(String body, Instant now, String actor) {
        if (body == null || body.isBlank()) {
            throw invalid("the body is empty; send {\"catalog\": ..., \"namespace\": ..., \"table\": ...}");
        }
        int bytes = body.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > maxBytes) {
            throw invalid("the body has " + bytes + " bytes, more than cryo.scanner.max-notification-bytes ("
                    + maxBytes + ")");
        }
        JsonNode json;
        try {
            json = EventJson.mapper().readTree(body);
        } catch (JsonProcessingException e) {
            throw invalid("the body is not valid JSON: " + e.getOriginalMessage());
        }
        if (json == null || !json.isObject()) {
            throw invalid("the body must be a JSON object");
        }
        String catalog = text(json, "catalog");
        String namespace = text(json, "namespace");
        String table = text(json, "table");
        Long snapshotId = null;
        JsonNode snapshot = json.get("snapshotId");
        if (snapshot != null && !snapshot.isNull()) {
            if (!snapshot.isIntegralNumber() || !snapshot.canConvertToLong()) {
                throw invalid("snapshotId must be an integer");
            }
            snapshotId = snapshot.asLong();
        }
        TableId id;
        try {
            id = new TableId(catalog, Arrays.asList(namespace.split("\\.", -1)), table);
        } catch (IllegalArgumentException e) {
            throw invalid(e.getMessage());
        }
        if (!catalogs.contains(catalog)) {
            throw new CryoException(ScannerErrorCode.UNKNOWN_CATALOG, "Cannot accept notification: catalog '" + catalog
                    + "' is not configured; configured catalogs are " + catalogs + " (cryo.catalogs.<name>.*)");
        }
        return new TableChanged(id, ChangeSource.WEBHOOK, now, snapshotId, null, null, null, null, null,
                actor);
    }

    private static String text(JsonNode json, String field) {
        JsonNode value = json.get(field);
        if (value == null || value.isNull()) {
            throw invalid("field '" + field + "' is missing");
        }
        if (!value.isTextual() || value.asText().isBlank()) {
            throw invalid("field '" + field + "' must be a non-empty string");
        }
        return value.asText();
    }

    private static CryoException invalid(String reason) {
        return new CryoException(ScannerErrorCode.INVALID_NOTIFICATION, "Cannot accept notification: " + reason);
    }
}
