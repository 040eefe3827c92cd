package dev.cryo.scanner.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.ChangeSource;
import dev.cryo.contracts.event.TableChanged;
import dev.cryo.contracts.json.EventJson;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.platform.error.CryoException;
import dev.cryo.platform.security.Actors;
import dev.cryo.platform.security.Roles;
import dev.cryo.scanner.config.ScannerConfig;
import dev.cryo.scanner.config.ScannerErrorCode;
import dev.cryo.scanner.messaging.ChangePublisher;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Arrays;

/**
 * The webhook: a catalog, an orchestrator or a writer tells the scanner that a table changed
 * ({@code {catalog, namespace, table, snapshotId?}}); unknown fields are ignored.
 */
@Path("/api/v1/notifications")
public class NotificationResource {

    private final ChangePublisher publisher;
    private final CatalogRegistry catalogs;
    private final ScannerConfig config;
    private final SecurityIdentity identity;
    private final Clock clock;

    NotificationResource(ChangePublisher publisher, CatalogRegistry catalogs, ScannerConfig config,
                         SecurityIdentity identity, Clock clock) {
        this.publisher = publisher;
        this.catalogs = catalogs;
        this.config = config;
        this.identity = identity;
        this.clock = clock;
    }

    @POST
    @RolesAllowed(Roles.OPERATOR)
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response notify(String body) {
        TableChanged change = parse(body);
        EventEnvelope<TableChanged> published = publisher.publish(change);
        return Response.accepted(new ChangeAccepted(published.id(), change.table().toString())).build();
    }

    private TableChanged parse(String body) {
        if (body == null || body.isBlank()) {
            throw invalid("the body is empty; send {\"catalog\": ..., \"namespace\": ..., \"table\": ...}");
        }
        int bytes = body.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > config.maxNotificationBytes()) {
            throw invalid("the body has " + bytes + " bytes, more than cryo.scanner.max-notification-bytes ("
                    + config.maxNotificationBytes() + ")");
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
        if (!catalogs.names().contains(catalog)) {
            throw new CryoException(ScannerErrorCode.UNKNOWN_CATALOG, "Cannot accept notification: catalog '" + catalog
                    + "' is not configured; configured catalogs are " + catalogs.names() + " (cryo.catalogs.<name>.*)");
        }
        return new TableChanged(id, ChangeSource.WEBHOOK, clock.instant(), snapshotId, null, null, null, null, null,
                Actors.of(identity));
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
