package dev.cryo.contracts.event;

import dev.cryo.contracts.Grade;
import dev.cryo.contracts.TableId;

import java.time.Instant;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The grade of one scan: published for every scan, on {@code cryo.table-health.v1}.
 *
 * @param table the table
 * @param scanId the graded scan
 * @param snapshotId the graded snapshot (optional: the table has none)
 * @param gradedAt when it was graded
 * @param score 0..100
 * @param grade the band of the score
 * @param sizeScale the size scale factor {@code s} used for count limits
 * @param deductions findings, worst first
 * @param notEvaluated checks that had no data to judge
 * @param held findings that only a policy change can win back: no points, never planned (optional,
 *             empty when none; absent in events from before it existed)
 * @param limits the limits of every check the grading applied, before size scaling (optional: empty
 *               in events from before it existed)
 */
public record TableGraded(
        TableId table,
        String scanId,
        Long snapshotId,
        Instant gradedAt,
        int score,
        Grade grade,
        double sizeScale,
        List<Deduction> deductions,
        List<NotEvaluated> notEvaluated,
        List<HeldFinding> held,
        List<CheckLimits> limits) implements CryoEvent {

    public TableGraded {
        requireNonNull(table, "table is null");
        Require.nonBlank(scanId, "scanId");
        requireNonNull(gradedAt, "gradedAt is null");
        requireNonNull(grade, "grade is null");
        if (Grade.of(score) != grade) {
            throw new IllegalArgumentException("grade " + grade + " does not match score " + score);
        }
        if (sizeScale < 1) {
            throw new IllegalArgumentException("sizeScale must be at least 1: " + sizeScale);
        }
        deductions = Require.list(deductions, "deductions");
        notEvaluated = Require.list(notEvaluated, "notEvaluated");
        held = held == null ? List.of() : List.copyOf(held);
        limits = limits == null ? List.of() : List.copyOf(limits);
    }

    /** A grading with no held finding that does not name its limits. */
    public TableGraded(TableId table, String scanId, Long snapshotId, Instant gradedAt, int score, Grade grade,
                       double sizeScale, List<Deduction> deductions, List<NotEvaluated> notEvaluated) {
        this(table, scanId, snapshotId, gradedAt, score, grade, sizeScale, deductions, notEvaluated, List.of(), List.of());
    }
}
