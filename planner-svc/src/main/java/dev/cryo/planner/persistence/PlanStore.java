package dev.cryo.planner.persistence;

import dev.cryo.contracts.TableId;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.MaintenancePlanned;
import dev.cryo.contracts.event.TableGraded;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.planner.domain.PlanStatus;
import dev.cryo.planner.domain.Supersession.PriorPlan;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The planner's tables (see {@code V1__planner.sql}), in plain JDBC: scans, the latest grade per
 * table and the plans. Writes run inside the caller's transaction.
 */
@ApplicationScoped
public class PlanStore {

    private static final String PLAN_COLUMNS = "event_id, grade_event_id, trigger_event_id, correlation_id, status, "
            + "status_changed_at, superseded_by_plan_id, payload";

    /** A stored scan's identity and age, without its payload. */
    public record ScanHeader(String scanId, Instant scannedAt) {
    }

    private final Jdbc jdbc;

    PlanStore(AgroalDataSource dataSource) {
        this.jdbc = new Jdbc(dataSource);
    }

    /**
     * Locks the table's row for the rest of the transaction (creating it if needed) and returns its
     * latest grade. Both consumers lock it first, so a grade and its scan arriving at the same
     * moment on their two topics are handled one after the other.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public Optional<StoredGrade> lockTable(TableId table) {
        return jdbc.query("lock table " + table, connection -> {
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO table_state (table_id) VALUES (?) ON CONFLICT DO NOTHING")) {
                insert.setString(1, table.toString());
                insert.executeUpdate();
            }
            return readGrade(connection, table, " FOR UPDATE");
        });
    }

    /** The latest grade of a table, if any. */
    public Optional<StoredGrade> latestGrade(TableId table) {
        return jdbc.query("read the grade of " + table, connection -> readGrade(connection, table, ""));
    }

    @Transactional(Transactional.TxType.MANDATORY)
    public void saveGrade(EventEnvelope<TableGraded> envelope, boolean waitingForScan) {
        TableGraded grade = envelope.data();
        jdbc.update("store the grade of " + grade.table(), """
                UPDATE table_state SET grade_event_id = ?, grade_correlation_id = ?, grade_actor = ?, graded_at = ?,
                    scan_id = ?, grade_payload = ?, waiting_for_scan = ? WHERE table_id = ?""",
                envelope.id(), envelope.correlationId(), envelope.actor(), Timestamp.from(grade.gradedAt()),
                grade.scanId(), Jdbc.json(grade), waitingForScan, grade.table().toString());
    }

    @Transactional(Transactional.TxType.MANDATORY)
    public void stopWaiting(TableId table) {
        jdbc.update("update " + table, "UPDATE table_state SET waiting_for_scan = false WHERE table_id = ?", table.toString());
    }

    /** Stores a scan (once: a redelivered scan changes nothing) and keeps only the newest {@code keep} of its table. */
    @Transactional(Transactional.TxType.MANDATORY)
    public void saveScan(TableScanned scan, int keep) {
        jdbc.update("store scan " + scan.scanId(), """
                INSERT INTO scan (scan_id, table_id, scanned_at, payload) VALUES (?, ?, ?, ?)
                ON CONFLICT (table_id, scan_id) DO NOTHING""",
                scan.scanId(), scan.table().toString(), Timestamp.from(scan.scannedAt()), Jdbc.json(scan));
        jdbc.update("prune the scans of " + scan.table(), """
                DELETE FROM scan WHERE table_id = ? AND scan_id NOT IN (
                    SELECT scan_id FROM scan WHERE table_id = ? ORDER BY scanned_at DESC, scan_id DESC LIMIT ?)""",
                scan.table().toString(), scan.table().toString(), keep);
    }

    public Optional<TableScanned> findScan(TableId table, String scanId) {
        return jdbc.query("read scan " + scanId + " of " + table, connection -> {
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT payload FROM scan WHERE table_id = ? AND scan_id = ?")) {
                select.setString(1, table.toString());
                select.setString(2, scanId);
                try (ResultSet row = select.executeQuery()) {
                    return row.next() ? Optional.of(Jdbc.read(row.getString(1), TableScanned.class)) : Optional.empty();
                }
            }
        });
    }

    public Optional<ScanHeader> newestScan(TableId table) {
        return jdbc.query("read the scans of " + table, connection -> {
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT scan_id, scanned_at FROM scan WHERE table_id = ? ORDER BY scanned_at DESC, scan_id DESC LIMIT 1")) {
                select.setString(1, table.toString());
                try (ResultSet row = select.executeQuery()) {
                    return row.next()
                            ? Optional.of(new ScanHeader(row.getString(1), row.getTimestamp(2).toInstant()))
                            : Optional.empty();
                }
            }
        });
    }

    @Transactional(Transactional.TxType.MANDATORY)
    public void insertPlan(StoredPlan stored, String actor) {
        MaintenancePlanned plan = stored.plan();
        jdbc.update("store plan " + plan.planId(), """
                INSERT INTO plan (plan_id, table_id, event_id, grade_event_id, trigger_event_id, correlation_id, actor,
                    scan_id, planned_at, status, status_changed_at, supersedes_plan_id, superseded_by_plan_id, payload)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                plan.planId(), plan.table().toString(), stored.eventId(), stored.gradeEventId(),
                stored.triggerEventId(), stored.correlationId(), actor, plan.scanId(), Timestamp.from(plan.plannedAt()),
                stored.status().name(), Timestamp.from(stored.statusChangedAt()), plan.supersedesPlanId(),
                stored.supersededByPlanId(), Jdbc.json(plan));
    }

    /** Names the plan that replaces {@code planId}; a plan that had not started becomes SUPERSEDED. */
    @Transactional(Transactional.TxType.MANDATORY)
    public void markSuperseded(String planId, String byPlanId, Instant at) {
        jdbc.update("supersede plan " + planId, """
                UPDATE plan SET superseded_by_plan_id = ?,
                    status = CASE WHEN status = ? THEN ? ELSE status END,
                    status_changed_at = CASE WHEN status = ? THEN ? ELSE status_changed_at END
                WHERE plan_id = ?""",
                byPlanId, PlanStatus.PLANNED.name(), PlanStatus.SUPERSEDED.name(), PlanStatus.PLANNED.name(),
                Timestamp.from(at), planId);
    }

    /**
     * Records an executor's report on a plan: STARTED moves a plan that has not finished, FINISHED
     * any plan. Reports arrive once or more, in order per table; a plan this planner does not know
     * (another deployment's, an old test's) changes nothing.
     *
     * @return true when a stored plan changed
     */
    public boolean recordReport(String planId, PlanStatus status, Instant at) {
        if (status != PlanStatus.STARTED && status != PlanStatus.FINISHED) {
            throw new IllegalArgumentException("Cannot record a " + status + " report: executors report STARTED or FINISHED");
        }
        return jdbc.query("record the report on plan " + planId, connection -> {
            try (PreparedStatement statement = connection.prepareStatement("""
                    UPDATE plan SET status = ?, status_changed_at = ?
                    WHERE plan_id = ? AND status <> ? AND status <> ?""")) {
                Jdbc.bind(statement, status.name(), Timestamp.from(at), planId, PlanStatus.FINISHED.name(), status.name());
                return statement.executeUpdate() == 1;
            }
        });
    }

    /** The newest plans of a table, as supersession needs them. */
    public List<PriorPlan> priorPlans(TableId table) {
        return jdbc.query("read the plans of " + table, connection -> {
            try (PreparedStatement select = connection.prepareStatement("""
                    SELECT plan_id, planned_at, status FROM plan WHERE table_id = ?
                    ORDER BY planned_at DESC, plan_id DESC LIMIT 10""")) {
                select.setString(1, table.toString());
                List<PriorPlan> plans = new ArrayList<>();
                try (ResultSet row = select.executeQuery()) {
                    while (row.next()) {
                        plans.add(new PriorPlan(row.getString(1), row.getTimestamp(2).toInstant(),
                                PlanStatus.valueOf(row.getString(3))));
                    }
                }
                return plans;
            }
        });
    }

    /** A table's plans, newest first. */
    public List<StoredPlan> plans(TableId table, int limit) {
        return plans("SELECT " + PLAN_COLUMNS + " FROM plan WHERE table_id = ? ORDER BY planned_at DESC, plan_id DESC LIMIT ?",
                table.toString(), limit);
    }

    /** One plan by its id. */
    public Optional<StoredPlan> plan(String planId) {
        return plans("SELECT " + PLAN_COLUMNS + " FROM plan WHERE plan_id = ?", planId).stream().findFirst();
    }

    /** The plans that handling {@code eventId} produced, to publish (again). */
    public List<StoredPlan> plansTriggeredBy(String eventId) {
        return plans("SELECT " + PLAN_COLUMNS + " FROM plan WHERE trigger_event_id = ? ORDER BY planned_at, plan_id",
                eventId);
    }

    private List<StoredPlan> plans(String sql, Object... parameters) {
        return jdbc.query("read plans", connection -> {
            try (PreparedStatement select = connection.prepareStatement(sql)) {
                Jdbc.bind(select, parameters);
                List<StoredPlan> plans = new ArrayList<>();
                try (ResultSet row = select.executeQuery()) {
                    while (row.next()) {
                        plans.add(new StoredPlan(row.getString(1), row.getString(2), row.getString(3), row.getString(4),
                                PlanStatus.valueOf(row.getString(5)), row.getTimestamp(6).toInstant(), row.getString(7),
                                Jdbc.read(row.getString(8), MaintenancePlanned.class)));
                    }
                }
                return plans;
            }
        });
    }

    private static Optional<StoredGrade> readGrade(Connection connection, TableId table, String lock) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("""
                SELECT grade_event_id, grade_correlation_id, grade_actor, grade_payload, waiting_for_scan
                FROM table_state WHERE table_id = ?""" + lock)) {
            select.setString(1, table.toString());
            try (ResultSet row = select.executeQuery()) {
                if (!row.next() || row.getString(1) == null) {
                    return Optional.empty();
                }
                return Optional.of(new StoredGrade(row.getString(1), row.getString(2), row.getString(3),
                        Jdbc.read(row.getString(4), TableGraded.class), row.getBoolean(5)));
            }
        }
    }
}
