package dev.cryo.planner.persistence;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;

/**
 * A row of {@code plan}: a published plan, with its MaintenancePlanned JSON and the envelope attributes
 * needed to publish it again, byte for byte, when its input is redelivered.
 */
@Entity
@Table(name = "plan")
public class PlanEntity extends PanacheEntityBase {

    @Id
    @Column(name = "plan_id")
    public String planId;

    @Column(name = "table_id", nullable = false)
    public String tableId;

    @Column(name = "event_id", nullable = false)
    public String eventId;

    @Column(name = "grade_event_id", nullable = false)
    public String gradeEventId;

    @Column(name = "trigger_event_id", nullable = false)
    public String triggerEventId;

    @Column(name = "correlation_id", nullable = false)
    public String correlationId;

    @Column(name = "actor")
    public String actor;

    @Column(name = "scan_id", nullable = false)
    public String scanId;

    @Column(name = "planned_at", nullable = false)
    public Instant plannedAt;

    /** A {@code PlanStatus} name. */
    @Column(name = "status", nullable = false)
    public String status;

    @Column(name = "status_changed_at", nullable = false)
    public Instant statusChangedAt;

    @Column(name = "supersedes_plan_id")
    public String supersedesPlanId;

    @Column(name = "superseded_by_plan_id")
    public String supersededByPlanId;

    /** The MaintenancePlanned's JSON. */
    @Column(name = "payload", nullable = false)
    public String payload;
}
