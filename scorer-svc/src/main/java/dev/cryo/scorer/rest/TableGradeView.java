package dev.cryo.scorer.rest;

import dev.cryo.contracts.Grade;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.event.Deduction;
import dev.cryo.contracts.event.HeldFinding;
import dev.cryo.contracts.event.NotEvaluated;

import java.time.Instant;
import java.util.List;

/**
 * A table's current grade in full, or one entry of its history.
 *
 * @param table the table id
 * @param grade the grade
 * @param score the score
 * @param previousGrade the grade before, when this grading moved the band (history)
 * @param gradeChanged whether this grading moved the band (a GradeChanged was published)
 * @param sizeScale the factor the count limits were multiplied by
 * @param scanId the graded scan
 * @param snapshotId the graded snapshot
 * @param scannedAt when it was scanned
 * @param gradedAt when it was graded
 * @param fixes the operations that win the lost points back, in the fixed order
 * @param deductions findings, worst first
 * @param notEvaluated checks without data to judge
 * @param held findings only a policy change can win back, with the setting that holds each: no
 *             points, not on the to-do list
 * @param correlationId the chain this grading belongs to: the id of the table change that led to its
 *                      scan (for a fix now, the event id the scanner answered the request with)
 * @param requestedBy the operator who asked for the scan (null: the event flow)
 */
public record TableGradeView(String table, Grade grade, int score, Grade previousGrade, boolean gradeChanged,
                             double sizeScale, String scanId, Long snapshotId, Instant scannedAt, Instant gradedAt,
                             List<Operation> fixes, List<Deduction> deductions, List<NotEvaluated> notEvaluated,
                             List<HeldFinding> held, String correlationId, String requestedBy) {
}
