package dev.cryo.scorer.persistence;

import dev.cryo.contracts.Grade;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.Deduction;

import java.time.Instant;
import java.util.List;

import static java.util.Objects.requireNonNull;

/** A table's current grade as listed: no not-evaluated checks, no policy, just what a list shows and the metrics need. */
public record CurrentRow(TableId table, String scanId, Long snapshotId, Instant scannedAt, Instant gradedAt, int score,
                         Grade grade, List<Deduction> deductions) {
    public CurrentRow {
        requireNonNull(table, "table is null");
        requireNonNull(grade, "grade is null");
        deductions = List.copyOf(deductions);
    }
}
