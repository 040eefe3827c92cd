package dev.cryo.contracts.event;

import dev.cryo.contracts.Grade;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;

import java.time.Instant;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A table's grade band moved (or the table got its first grade). For subscribers outside Cryo.
 *
 * @param table the table
 * @param previousGrade the grade before (optional: first grade)
 * @param previousScore the score before (optional: first grade)
 * @param grade the grade now
 * @param score the score now
 * @param snapshotId the graded snapshot (optional)
 * @param changedAt when it changed
 * @param fixes the operations that would win the lost points back, in the fixed order
 */
public record GradeChanged(
        TableId table,
        Grade previousGrade,
        Integer previousScore,
        Grade grade,
        int score,
        Long snapshotId,
        Instant changedAt,
        List<Operation> fixes) implements CryoEvent {

    public GradeChanged {
        requireNonNull(table, "table is null");
        requireNonNull(grade, "grade is null");
        if (previousGrade == grade) {
            throw new IllegalArgumentException("grade did not change: " + grade);
        }
        requireNonNull(changedAt, "changedAt is null");
        fixes = Require.list(Require.orDefault(fixes, List.of()), "fixes");
    }
}
