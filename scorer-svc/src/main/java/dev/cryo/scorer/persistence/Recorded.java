package dev.cryo.scorer.persistence;

import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.GradeChanged;
import dev.cryo.contracts.event.TableGraded;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * What {@link GradeStore#record} stored, or found stored for a scan graded before.
 *
 * @param graded the TableGraded envelope
 * @param change the GradeChanged envelope, if this grading moved the band
 * @param outcome what happened
 */
public record Recorded(EventEnvelope<TableGraded> graded, Optional<EventEnvelope<GradeChanged>> change, Outcome outcome) {

    public enum Outcome {
        /** A new grading that is now the table's current grade. */
        NEW_CURRENT,
        /** A new grading of a scan older than the current one: history only. */
        NEW_HISTORY_ONLY,
        /** The scan was graded before but its events may not have reached the broker: publish them again. */
        STORED_UNPUBLISHED,
        /** The scan was graded and its events acknowledged by the broker: nothing to do. */
        STORED_PUBLISHED
    }

    public Recorded {
        requireNonNull(graded, "graded is null");
        requireNonNull(change, "change is null");
        requireNonNull(outcome, "outcome is null");
    }

    /** The envelopes to publish for this outcome. */
    public List<EventEnvelope<?>> toPublish() {
        if (outcome == Outcome.STORED_PUBLISHED) {
            return List.of();
        }
        List<EventEnvelope<?>> envelopes = new ArrayList<>();
        envelopes.add(graded);
        change.ifPresent(envelopes::add);
        return List.copyOf(envelopes);
    }
}
