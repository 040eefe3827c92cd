package dev.cryo.audit.domain;

import java.time.Instant;
import java.time.YearMonth;

/**
 * What to select from the audit log. Every criterion is optional; the ones given must all hold.
 *
 * @param table the table id
 * @param operation an operation the row is about
 * @param engine the engine
 * @param status the status ({@code failed}, {@code deferred}, ...)
 * @param actor who asked
 * @param reason the reason code ({@code no-slot}, an error code, ...)
 * @param correlationId the chain
 * @param eventType the CloudEvents type
 * @param kind event, malformed or dead-letter
 * @param from events at or after this time
 * @param to events before this time
 * @param recordedMonth rows recorded in this month (UTC): one partition, for archiving
 */
public record AuditFilter(String table, String operation, String engine, String status, String actor, String reason,
                          String correlationId, String eventType, RecordKind kind, Instant from, Instant to,
                          YearMonth recordedMonth) {

    public static final AuditFilter ALL = new AuditFilter(null, null, null, null, null, null, null, null, null, null,
            null, null);

    public AuditFilter {
        if (from != null && to != null && !from.isBefore(to)) {
            throw new IllegalArgumentException("Cannot filter audit rows: from (" + from + ") must be before to (" + to + ")");
        }
    }

    /** Everything between two times. */
    public static AuditFilter between(Instant from, Instant to) {
        return new AuditFilter(null, null, null, null, null, null, null, null, null, from, to, null);
    }

    public AuditFilter withTable(String newTable) {
        return new AuditFilter(newTable, operation, engine, status, actor, reason, correlationId, eventType, kind, from, to,
                recordedMonth);
    }
}
