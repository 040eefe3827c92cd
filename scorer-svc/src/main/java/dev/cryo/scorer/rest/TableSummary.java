package dev.cryo.scorer.rest;

import dev.cryo.contracts.Grade;
import dev.cryo.contracts.event.Deduction;

import java.time.Instant;

/**
 * One row of the table listing.
 *
 * @param table the table id
 * @param catalog its catalog
 * @param namespace its namespace
 * @param grade current grade
 * @param score current score
 * @param topDeduction the worst deduction (null: none)
 * @param scanId the graded scan
 * @param snapshotId the graded snapshot
 * @param scannedAt when it was scanned
 * @param gradedAt when it was graded
 */
public record TableSummary(String table, String catalog, String namespace, Grade grade, int score, Deduction topDeduction,
                           String scanId, Long snapshotId, Instant scannedAt, Instant gradedAt) {
}
