package dev.cryo.planner.persistence;

import dev.cryo.contracts.event.TableGraded;

import static java.util.Objects.requireNonNull;

/**
 * The latest grade of a table, with the envelope attributes a plan made from it carries on.
 *
 * @param eventId the TableGraded's CloudEvents id (plan ids derive from it)
 * @param correlationId the chain it belongs to
 * @param actor who asked for it (optional)
 * @param grade the grade
 * @param waitingForScan true while the scan it names has not arrived
 */
public record StoredGrade(String eventId, String correlationId, String actor, TableGraded grade, boolean waitingForScan) {
    public StoredGrade {
        requireNonNull(eventId, "eventId is null");
        requireNonNull(correlationId, "correlationId is null");
        requireNonNull(grade, "grade is null");
    }
}
