package dev.cryo.scorer.persistence;

import dev.cryo.contracts.event.TableGraded;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.MappedSuperclass;

import java.time.Instant;

/** The columns a grading fills in both {@code grade_history} and {@code table_grade}. */
@MappedSuperclass
public abstract class GradingColumns extends PanacheEntityBase {

    @Column(name = "snapshot_id")
    public Long snapshotId;

    @Column(name = "scanned_at", nullable = false)
    public Instant scannedAt;

    @Column(name = "graded_at", nullable = false)
    public Instant gradedAt;

    @Column(name = "score", nullable = false)
    public int score;

    @Column(name = "grade", nullable = false)
    public String grade;

    void setGrading(GradingRecord record) {
        TableGraded graded = record.graded().data();
        snapshotId = graded.snapshotId();
        scannedAt = record.scannedAt();
        gradedAt = graded.gradedAt();
        score = graded.score();
        grade = graded.grade().name();
    }
}
