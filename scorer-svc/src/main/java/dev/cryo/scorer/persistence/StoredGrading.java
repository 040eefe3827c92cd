package dev.cryo.scorer.persistence;

import dev.cryo.contracts.event.GradeChanged;
import dev.cryo.contracts.event.TableGraded;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * One stored grading, as the API shows it.
 *
 * @param graded the published TableGraded
 * @param change the GradeChanged it caused, if the band moved
 * @param scannedAt when the scan ran
 * @param dataBytes the table's data bytes in the scan
 * @param properties the scan's table properties
 * @param correlationId the chain the grading belongs to: the id of the table change that led to its scan
 * @param actor the operator who asked for the scan, when one did (null: the event flow)
 */
public record StoredGrading(TableGraded graded, Optional<GradeChanged> change, Instant scannedAt, long dataBytes,
                            Map<String, String> properties, String correlationId, String actor) {
    public StoredGrading {
        requireNonNull(graded, "graded is null");
        requireNonNull(correlationId, "correlationId is null");
        requireNonNull(change, "change is null");
        requireNonNull(scannedAt, "scannedAt is null");
        properties = Map.copyOf(properties);
    }
}
