package dev.cryo.governor.persistence;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.DeferReason;
import dev.cryo.governor.domain.PlanCandidate;
import dev.cryo.governor.domain.StalePlans;
import dev.cryo.governor.domain.Supersession.KnownPlan;
import dev.cryo.governor.domain.Supersession.Stage;
import jakarta.enterprise.context.ApplicationScoped;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import static dev.cryo.governor.persistence.Jdbc.instant;

/**
 * The plans the governor received and where each stands. Callers hold a transaction. Plain JDBC: plans
 * are stored once ({@code ON CONFLICT DO NOTHING}) and an evaluation claims a due plan with a row lock.
 */
@ApplicationScoped
public class PlanStore {

    /**
     * A plan as received.
     *
     * @param candidate what its priority depends on (arrival is assigned by the database)
     * @param supersedesPlanId the older plan it replaces, or null
     * @param eventId the CloudEvents id of the MaintenancePlanned event
     * @param correlationId the chain it belongs to
     * @param actor who asked for it, or null
     * @param payload the MaintenancePlanned as JSON
     */
    public record ReceivedPlan(PlanCandidate candidate, String supersedesPlanId, String eventId, String correlationId,
                               String actor, String payload) {
    }

    /**
     * A queued plan, locked for a decision.
     *
     * @param plan the plan as received (with its arrival)
     * @param lastReason the reason of its last deferral, if any
     * @param deferrals how many deferrals were published for it
     */
    public record QueuedPlan(ReceivedPlan plan, Optional<DeferReason> lastReason, int deferrals) {
    }

    /**
     * A plan waiting, for the queue view.
     *
     * @param engine the engine it would run on (null until first evaluated)
     * @param reason its last reason (null until first evaluated)
     */
    public record WaitingPlan(String planId, String table, int score, Instant plannedAt, Instant receivedAt,
                              String reason, String message, Instant retryAfter, Instant deferredAt, String engine,
                              String supersedesPlanId) {
    }

    /**
     * A queued plan that is due, with what its last decision said.
     *
     * @param engine the engine its last decision named (empty: not decided yet)
     * @param lastReason the reason of its last deferral (empty: not decided yet)
     */
    public record DuePlan(PlanCandidate candidate, Optional<Engine> engine, Optional<DeferReason> lastReason) {
    }

    private static final String RECEIVED_COLUMNS = "plan_id, arrival, table_id, score, planned_at, supersedes_plan_id, "
            + "event_id, correlation_id, actor, payload";
    private static final String WAITING_COLUMNS = "plan_id, table_id, score, planned_at, received_at, reason, message, "
            + "retry_after, deferred_at, engine, supersedes_plan_id";

    private final Jdbc jdbc;

    PlanStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Stores a plan as queued, due now; false when it was stored before (a redelivery).
     *
     * @param snapshotId the snapshot its scan saw (optional)
     * @param scanStartedAt when its scan began (optional)
     */
    public boolean insert(ReceivedPlan plan, Long snapshotId, Instant scanStartedAt, Instant receivedAt) {
        PlanCandidate candidate = plan.candidate();
        return jdbc.update("INSERT INTO plan (plan_id, table_id, score, planned_at, received_at, supersedes_plan_id, "
                        + "event_id, correlation_id, actor, payload, stage, next_evaluation_at, snapshot_id, "
                        + "scan_started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?, ?, ?) "
                        + "ON CONFLICT (plan_id) DO NOTHING",
                candidate.planId(), candidate.table().toString(), candidate.score(), candidate.plannedAt(), receivedAt,
                plan.supersedesPlanId(), plan.eventId(), plan.correlationId(), plan.actor(), plan.payload(),
                receivedAt, snapshotId, scanStartedAt) == 1;
    }

    /** What each queued plan of the table was made from. */
    public List<StalePlans.PlanBasis> queuedBases(TableId table) {
        return jdbc.query("SELECT plan_id, table_id, snapshot_id, scan_started_at FROM plan "
                        + "WHERE stage = 'queued' AND table_id = ? ORDER BY arrival",
                row -> new StalePlans.PlanBasis(row.getString("plan_id"), TableId.parse(row.getString("table_id")),
                        (Long) row.getObject("snapshot_id"), instant(row, "scan_started_at")),
                table.toString());
    }

    public Optional<KnownPlan> known(String planId) {
        return jdbc.queryOne("SELECT plan_id, table_id, stage FROM plan WHERE plan_id = ?", PlanStore::knownPlan, planId);
    }

    /** A stored plan that names {@code planId} as the plan it replaces. */
    public Optional<KnownPlan> supersededBy(String planId) {
        return jdbc.queryOne("SELECT plan_id, table_id, stage FROM plan WHERE supersedes_plan_id = ? "
                + "ORDER BY arrival LIMIT 1", PlanStore::knownPlan, planId);
    }

    /** The stored plan, whatever its stage. */
    public Optional<ReceivedPlan> find(String planId) {
        return jdbc.queryOne("SELECT " + RECEIVED_COLUMNS + " FROM plan WHERE plan_id = ?", PlanStore::receivedPlan,
                planId);
    }

    /** Queued plans due for a decision, in admission order (worst score, oldest, first arrived). */
    public List<DuePlan> due(Instant now, int limit) {
        return jdbc.query("SELECT plan_id, table_id, score, planned_at, arrival, engine, reason FROM plan "
                        + "WHERE stage = 'queued' AND next_evaluation_at <= ? "
                        + "ORDER BY score, planned_at, arrival LIMIT ?",
                row -> new DuePlan(new PlanCandidate(row.getString("plan_id"), TableId.parse(row.getString("table_id")),
                        row.getInt("score"), instant(row, "planned_at"), row.getLong("arrival")),
                        Optional.ofNullable(row.getString("engine")).map(Engine::fromId),
                        Optional.ofNullable(row.getString("reason")).map(DeferReason::fromId)),
                now, limit);
    }

    /** Moves plans that still wait for the engine's capacity to their next check, without deciding them again. */
    public void postpone(List<String> planIds, Instant nextEvaluationAt) {
        for (String planId : planIds) {
            jdbc.update("UPDATE plan SET next_evaluation_at = ? WHERE plan_id = ? AND stage = 'queued' "
                    + "AND reason IN ('no-slot', 'engine-busy')", nextEvaluationAt, planId);
        }
    }

    /** Locks a plan that is still queued and due; empty when another decision took it first. */
    public Optional<QueuedPlan> lockDue(String planId, Instant now) {
        return jdbc.queryOne("SELECT " + RECEIVED_COLUMNS + ", reason, deferrals FROM plan "
                        + "WHERE plan_id = ? AND stage = 'queued' AND next_evaluation_at <= ? FOR UPDATE",
                row -> new QueuedPlan(receivedPlan(row),
                        Optional.ofNullable(row.getString("reason")).map(DeferReason::fromId), row.getInt("deferrals")),
                planId, now);
    }

    /** Records a deferral; {@code published} says whether a JobDeferred event went out for it. */
    public void defer(String planId, DeferReason reason, String message, Instant retryAfter, Instant deferredAt,
                      Engine engine, Instant nextEvaluationAt, boolean published) {
        jdbc.update("UPDATE plan SET reason = ?, message = ?, retry_after = ?, deferred_at = ?, engine = ?, "
                        + "next_evaluation_at = ?, deferrals = deferrals + ? WHERE plan_id = ?",
                reason.id(), message, retryAfter, deferredAt, engine.id(), nextEvaluationAt, published ? 1 : 0, planId);
    }

    public void admit(String planId, String jobId, Engine engine) {
        jdbc.update("UPDATE plan SET stage = 'admitted', job_id = ?, engine = ?, reason = NULL, message = NULL, "
                + "retry_after = NULL WHERE plan_id = ?", jobId, engine.id(), planId);
    }

    public void supersede(String planId, String message, Instant at) {
        jdbc.update("UPDATE plan SET stage = 'superseded', reason = ?, message = ?, retry_after = NULL, deferred_at = ?, "
                + "deferrals = deferrals + 1 WHERE plan_id = ?", DeferReason.SUPERSEDED.id(), message, at, planId);
    }

    /**
     * Where a plan stands at this governor.
     *
     * @param stage queued, admitted, done or superseded
     * @param reason the reason of its last deferral or of its dropping (null: none)
     * @param message what that decision said (null: none)
     * @param decidedAt when (null: not decided yet)
     * @param jobId its job (null: none yet)
     */
    public record PlanState(String planId, String table, String stage, String reason, String message, Instant decidedAt,
                            String jobId) {
    }

    public Optional<PlanState> state(String planId) {
        return jdbc.queryOne("SELECT plan_id, table_id, stage, reason, message, deferred_at, job_id FROM plan WHERE plan_id = ?",
                row -> new PlanState(row.getString("plan_id"), row.getString("table_id"), row.getString("stage"),
                        row.getString("reason"), row.getString("message"), Jdbc.instant(row, "deferred_at"),
                        row.getString("job_id")), planId);
    }

    public void done(String planId) {
        jdbc.update("UPDATE plan SET stage = 'done' WHERE plan_id = ?", planId);
    }

    /** Makes the queued plans of a table due now: its lock was released. */
    public void dueNowForTable(TableId table, Instant now) {
        jdbc.update("UPDATE plan SET next_evaluation_at = ? WHERE stage = 'queued' AND table_id = ? "
                + "AND next_evaluation_at > ?", now, table.toString(), now);
    }

    /** Makes the plans that wait for an engine's load or slots due now: a slot freed. */
    public void dueNowForEngine(Engine engine, Instant now) {
        jdbc.update("UPDATE plan SET next_evaluation_at = ? WHERE stage = 'queued' AND engine = ? "
                        + "AND reason IN ('no-slot', 'engine-busy') AND next_evaluation_at > ?",
                now, engine.id(), now);
    }

    /** Makes every queued plan due now: an operator changed a rule. */
    public void allDueNow(Instant now) {
        jdbc.update("UPDATE plan SET next_evaluation_at = ? WHERE stage = 'queued' AND next_evaluation_at > ?", now, now);
    }

    public List<WaitingPlan> waiting() {
        return jdbc.query("SELECT " + WAITING_COLUMNS + " FROM plan WHERE stage = 'queued' "
                + "ORDER BY score, planned_at, arrival", PlanStore::waitingPlan);
    }

    public List<WaitingPlan> waiting(TableId table) {
        return jdbc.query("SELECT " + WAITING_COLUMNS + " FROM plan WHERE stage = 'queued' AND table_id = ? "
                + "ORDER BY score, planned_at, arrival", PlanStore::waitingPlan, table.toString());
    }

    public long queueDepth() {
        return jdbc.queryOne("SELECT count(*) AS depth FROM plan WHERE stage = 'queued'", row -> row.getLong("depth"))
                .orElse(0L);
    }

    private static KnownPlan knownPlan(ResultSet row) throws SQLException {
        return new KnownPlan(row.getString("plan_id"), TableId.parse(row.getString("table_id")),
                Stage.valueOf(row.getString("stage").toUpperCase(Locale.ROOT)));
    }

    private static ReceivedPlan receivedPlan(ResultSet row) throws SQLException {
        return new ReceivedPlan(new PlanCandidate(row.getString("plan_id"), TableId.parse(row.getString("table_id")),
                row.getInt("score"), instant(row, "planned_at"), row.getLong("arrival")),
                row.getString("supersedes_plan_id"), row.getString("event_id"), row.getString("correlation_id"),
                row.getString("actor"), row.getString("payload"));
    }

    private static WaitingPlan waitingPlan(ResultSet row) throws SQLException {
        return new WaitingPlan(row.getString("plan_id"), row.getString("table_id"), row.getInt("score"),
                instant(row, "planned_at"), instant(row, "received_at"), row.getString("reason"),
                row.getString("message"), instant(row, "retry_after"), instant(row, "deferred_at"),
                row.getString("engine"), row.getString("supersedes_plan_id"));
    }
}
