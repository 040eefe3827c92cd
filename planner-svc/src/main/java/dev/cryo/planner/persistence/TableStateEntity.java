package dev.cryo.planner.persistence;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;

/**
 * A row of {@code table_state}: a table's latest grade (TableGraded JSON and its envelope) and whether it
 * waits for its scan. Every change to a table's plans happens under the table's lock ({@link PlanStore#lockTable}).
 */
@Entity
@Table(name = "table_state")
public class TableStateEntity extends PanacheEntityBase {

    @Id
    @Column(name = "table_id")
    public String tableId;

    @Column(name = "grade_event_id")
    public String gradeEventId;

    @Column(name = "grade_correlation_id")
    public String gradeCorrelationId;

    @Column(name = "grade_actor")
    public String gradeActor;

    @Column(name = "graded_at")
    public Instant gradedAt;

    @Column(name = "scan_id")
    public String scanId;

    /** The TableGraded's JSON (null until the table's first grade). */
    @Column(name = "grade_payload")
    public String gradePayload;

    @Column(name = "waiting_for_scan", nullable = false)
    public boolean waitingForScan;
}
