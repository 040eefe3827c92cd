package dev.cryo.scorer.persistence;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.ColumnTransformer;

/**
 * A row of {@code table_grade}: a table's current grade, its newest scan's. The listing and the gauges
 * read these rows ({@link CurrentGrades}); the grader writes them ({@link GradeStore}).
 */
@Entity
@Table(name = "table_grade")
public class TableGradeEntity extends GradingColumns {

    @Id
    @Column(name = "table_id")
    public String tableId;

    @Column(name = "catalog", nullable = false)
    public String catalog;

    @Column(name = "namespace", nullable = false)
    public String namespace;

    @Column(name = "scan_id", nullable = false)
    public String scanId;

    /** The deductions (JSON array). */
    @Column(name = "deductions", nullable = false)
    @ColumnTransformer(write = "?::jsonb")
    public String deductions;
}
