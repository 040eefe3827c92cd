package dev.cryo.scorer.persistence;

import dev.cryo.platform.persistence.TableScanKey;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import org.hibernate.annotations.ColumnTransformer;

import java.time.Instant;

/**
 * A row of {@code grade_history}: one scan's grading, with the events it published and their
 * CloudEvents attributes, so that a redelivered scan publishes the very same events again. JSON
 * columns hold the contracts' own serialization ({@code EventJson}) as text, cast to {@code jsonb}.
 */
@Entity
@Table(name = "grade_history")
@IdClass(TableScanKey.class)
public class GradeHistoryEntity extends GradingColumns {

    @Id
    @Column(name = "table_id")
    public String tableId;

    @Id
    @Column(name = "scan_id")
    public String scanId;

    @Column(name = "data_bytes", nullable = false)
    public long dataBytes;

    /** The scan's table properties (JSON object). */
    @Column(name = "properties", nullable = false)
    @ColumnTransformer(write = "?::jsonb")
    public String properties;

    /** The published TableGraded's data (JSON). */
    @Column(name = "table_graded", nullable = false)
    @ColumnTransformer(write = "?::jsonb")
    public String tableGraded;

    @Column(name = "graded_event_id", nullable = false)
    public String gradedEventId;

    /** The published GradeChanged's data (JSON), when the band moved. */
    @Column(name = "grade_changed")
    @ColumnTransformer(write = "?::jsonb")
    public String gradeChanged;

    @Column(name = "grade_changed_event_id")
    public String gradeChangedEventId;

    @Column(name = "event_source", nullable = false)
    public String eventSource;

    @Column(name = "correlation_id", nullable = false)
    public String correlationId;

    @Column(name = "actor")
    public String actor;

    /** When the broker acknowledged the events; a redelivery after it publishes nothing again. */
    @Column(name = "published_at")
    public Instant publishedAt;
}
