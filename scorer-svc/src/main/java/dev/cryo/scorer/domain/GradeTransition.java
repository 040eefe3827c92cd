package dev.cryo.scorer.domain;

import dev.cryo.contracts.Operation;
import dev.cryo.contracts.event.GradeChanged;
import dev.cryo.contracts.event.TableGraded;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * What a new grading does to a table's current grade. Subscribers hear of a table only when its
 * band moves (the first grade included), so a scan with the same band changes nothing for them; a
 * scan older than the current one (a replay, or a late redelivery) goes into the history but cannot
 * take the current grade back in time.
 *
 * @param effect whether the grading becomes the current grade
 * @param change the GradeChanged to publish, if the band moved
 */
public record GradeTransition(Effect effect, Optional<GradeChanged> change) {

    /** Whether a grading replaces the table's current grade. */
    public enum Effect { REPLACES_CURRENT, HISTORY_ONLY }

    public GradeTransition {
        requireNonNull(effect, "effect is null");
        requireNonNull(change, "change is null");
        if (effect == Effect.HISTORY_ONLY && change.isPresent()) {
            throw new IllegalArgumentException("a grading that does not become current cannot change the grade");
        }
    }

    /**
     * @param current the table's current grade, if it has one
     * @param graded the new grading
     * @param scannedAt when the graded scan ran
     * @param fixes the operations that win the lost points back, in the fixed order
     */
    public static GradeTransition of(Optional<CurrentGrade> current, TableGraded graded, Instant scannedAt,
                                     List<Operation> fixes) {
        requireNonNull(current, "current is null");
        requireNonNull(graded, "graded is null");
        requireNonNull(scannedAt, "scannedAt is null");
        if (current.isPresent() && scannedAt.isBefore(current.get().scannedAt())) {
            return new GradeTransition(Effect.HISTORY_ONLY, Optional.empty());
        }
        if (current.isPresent() && current.get().grade() == graded.grade()) {
            return new GradeTransition(Effect.REPLACES_CURRENT, Optional.empty());
        }
        GradeChanged change = new GradeChanged(graded.table(),
                current.map(CurrentGrade::grade).orElse(null),
                current.map(CurrentGrade::score).orElse(null),
                graded.grade(), graded.score(), graded.snapshotId(), graded.gradedAt(), fixes);
        return new GradeTransition(Effect.REPLACES_CURRENT, Optional.of(change));
    }
}
