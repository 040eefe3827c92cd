package dev.cryo.audit.rest;

import dev.cryo.audit.AuditErrorCode;
import dev.cryo.audit.domain.AuditFilter;
import dev.cryo.audit.domain.RecordKind;
import dev.cryo.contracts.Engine;
import dev.cryo.contracts.Operation;
import dev.cryo.platform.error.CryoException;
import jakarta.ws.rs.QueryParam;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.YearMonth;
import java.time.format.DateTimeParseException;
import java.util.function.Function;

/** The filter query parameters shared by listing and export. */
public class FilterParameters {

    @QueryParam("table")
    String table;
    @QueryParam("operation")
    String operation;
    @QueryParam("engine")
    String engine;
    @QueryParam("status")
    String status;
    @QueryParam("actor")
    String actor;
    @QueryParam("reason")
    String reason;
    @QueryParam("correlationId")
    String correlationId;
    @QueryParam("type")
    String type;
    @QueryParam("kind")
    String kind;
    @QueryParam("from")
    String from;
    @QueryParam("to")
    String to;
    @QueryParam("recordedMonth")
    String recordedMonth;

    /**
     * The filter these parameters describe.
     *
     * @throws CryoException {@link AuditErrorCode#INVALID_FILTER} naming the parameter
     */
    AuditFilter toFilter(String action) {
        Instant fromTime = parse("from", from, FilterParameters::instant, action);
        Instant toTime = parse("to", to, FilterParameters::instant, action);
        if (fromTime != null && toTime != null && !fromTime.isBefore(toTime)) {
            throw new CryoException(AuditErrorCode.INVALID_FILTER, "Cannot " + action + ": 'from' (" + from
                    + ") must be before 'to' (" + to + ")");
        }
        return new AuditFilter(blankToNull(table),
                parse("operation", operation, value -> Operation.fromId(value).id(), action),
                parse("engine", engine, value -> Engine.fromId(value).id(), action),
                blankToNull(status), blankToNull(actor), blankToNull(reason), blankToNull(correlationId),
                blankToNull(type), parse("kind", kind, RecordKind::fromId, action), fromTime, toTime,
                parse("recordedMonth", recordedMonth, YearMonth::parse, action));
    }

    private static Instant instant(String value) {
        return OffsetDateTime.parse(value).toInstant();
    }

    private static <T> T parse(String name, String value, Function<String, T> parser, String action) {
        String given = blankToNull(value);
        if (given == null) {
            return null;
        }
        try {
            return parser.apply(given);
        } catch (IllegalArgumentException | DateTimeParseException e) {
            throw new CryoException(AuditErrorCode.INVALID_FILTER, "Cannot " + action + ": parameter '" + name + "' ('"
                    + given + "') " + hint(name) + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")"));
        }
    }

    private static String hint(String name) {
        return switch (name) {
            case "from", "to" -> "must be an RFC 3339 time such as 2026-01-31T12:00:00Z";
            case "recordedMonth" -> "must be a month such as 2026-01";
            case "kind" -> "must be event, malformed or dead-letter";
            case "operation" -> "must be an operation id such as optimize";
            case "engine" -> "must be native, trino or spark";
            default -> "is not valid";
        };
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.trim();
    }
}
