package dev.cryo.scoring;

import dev.cryo.contracts.Grade;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.event.Deduction;
import dev.cryo.contracts.event.HeldFinding;
import dev.cryo.contracts.event.NotEvaluated;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The outcome of the 14 checks for one scan.
 *
 * @param score 0..100
 * @param grade the band of the score
 * @param sizeScale the factor {@code s} the count limits were multiplied by
 * @param deductions findings, worst first
 * @param notEvaluated checks without data to judge, or disabled, in the order of SCORING.md
 * @param held findings only a policy change can win back: no points, not on the to-do list
 */
public record Grading(int score, Grade grade, double sizeScale, List<Deduction> deductions, List<NotEvaluated> notEvaluated,
                      List<HeldFinding> held) {

    public Grading {
        requireNonNull(grade, "grade is null");
        if (Grade.of(score) != grade) {
            throw new IllegalArgumentException("grade " + grade + " does not match score " + score);
        }
        deductions = List.copyOf(deductions);
        notEvaluated = List.copyOf(notEvaluated);
        held = List.copyOf(held);
    }

    /** The operations that win the lost points back, deduplicated, in the fixed order. */
    public List<Operation> fixes() {
        return Operation.inFixedOrder(deductions.stream().map(Deduction::fix).toList());
    }
}
