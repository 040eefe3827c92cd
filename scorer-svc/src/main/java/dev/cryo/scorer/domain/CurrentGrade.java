package dev.cryo.scorer.domain;

import dev.cryo.contracts.Grade;

import java.time.Instant;

import static java.util.Objects.requireNonNull;

/**
 * A table's grade as last stored: the grade of its most recent scan.
 *
 * @param scanId the scan it came from
 * @param scannedAt when that scan ran (decides which of two scans is newer)
 * @param score its score
 * @param grade its grade
 */
public record CurrentGrade(String scanId, Instant scannedAt, int score, Grade grade) {
    public CurrentGrade {
        requireNonNull(scanId, "scanId is null");
        requireNonNull(scannedAt, "scannedAt is null");
        requireNonNull(grade, "grade is null");
    }
}
