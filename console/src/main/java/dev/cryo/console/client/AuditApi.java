package dev.cryo.console.client;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.time.Instant;
import java.util.List;

/** audit-svc's REST API, as far as the console uses it. */
@Path("/api/v1/audit")
@Produces(MediaType.APPLICATION_JSON)
public interface AuditApi {

    /**
     * One stored event.
     *
     * @param stage its step in a table change: change, scan, grade, plan, admit, defer, job, result, score, failed-delivery
     * @param detail one line for people
     * @param payload the event's data as published
     */
    record AuditEvent(long id, Instant recordedAt, String eventId, String kind, String stage, Instant eventTime,
                      String eventType, String table, List<String> operations, String engine, String status,
                      Long durationMillis, String actor, String reason, String detail, String correlationId,
                      String jobId, String planId, JsonNode payload) {
        public AuditEvent {
            operations = operations == null ? List.of() : List.copyOf(operations);
        }
    }

    /** A page of events, newest first. */
    record AuditPage(List<AuditEvent> items, String next) {
        public AuditPage {
            items = items == null ? List.of() : List.copyOf(items);
        }
    }

    /**
     * @param table only this table's events
     * @param type only this CloudEvents type (null: every type)
     */
    @GET
    AuditPage events(@QueryParam("table") String table, @QueryParam("type") String type, @QueryParam("limit") int limit);
}
