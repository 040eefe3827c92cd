package dev.cryo.scorer.persistence;

import dev.cryo.contracts.Operation;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.TableGraded;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * A new grading to store.
 *
 * @param graded the TableGraded envelope to publish (its id derived from the scan's event)
 * @param changeEventId the id a GradeChanged gets if the band moved
 * @param scannedAt when the scan ran
 * @param dataBytes the table's data bytes in the scan (the size its limits scaled with)
 * @param properties the scan's table properties (the effective policy is recomputed from them)
 * @param fixes the operations that win the lost points back, in the fixed order
 */
public record GradingRecord(EventEnvelope<TableGraded> graded, String changeEventId, Instant scannedAt, long dataBytes,
                            Map<String, String> properties, List<Operation> fixes) {
    public GradingRecord {
        requireNonNull(graded, "graded is null");
        requireNonNull(changeEventId, "changeEventId is null");
        requireNonNull(scannedAt, "scannedAt is null");
        properties = Map.copyOf(properties);
        fixes = List.copyOf(fixes);
    }
}
