package dev.cryo.planner.persistence;

import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.JobOutcome;
import dev.cryo.contracts.event.JobScored;
import dev.cryo.planner.domain.JobScores.FinishedJob;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The planner's {@code job_score} table (see {@code V2__job_scores.sql}): what each job's operations
 * changed, then its JobScored. Writes run inside the caller's transaction. Plain JDBC: operation reports
 * arrive without the table's lock and are folded in by conditional SQL (insert-if-absent, append-if-missing,
 * {@code greatest}), the score is taken once by a conditional update, and the sweep claims rows with
 * {@code FOR UPDATE SKIP LOCKED}; an entity's read-modify-write would race the reports.
 */
@ApplicationScoped
public class JobScoreStore {

    /** A JobScored as stored, with the attributes its envelope is published with again. */
    public record StoredScore(String eventId, String correlationId, String actor, JobScored score) {
    }

    private static final String SCORE_COLUMNS = "event_id, correlation_id, actor, payload";

    private final Jdbc jdbc;

    JobScoreStore(AgroalDataSource dataSource) {
        this.jdbc = new Jdbc(dataSource);
    }

    /**
     * Records one operation's (or chunk's) effect: changed, or may have (true or unknown), or a
     * no-op (false). An operation counts as a no-op only if none of its chunks changed anything.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public void recordOperation(String jobId, String planId, TableId table, Operation operation, Boolean changed,
                                Instant finishedAt) {
        jdbc.update("record an operation of job " + jobId, """
                INSERT INTO job_score (job_id, plan_id, table_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING""",
                jobId, planId, table.toString());
        String column = Boolean.FALSE.equals(changed) ? "noop_operations" : "changed_operations";
        jdbc.update("record an operation of job " + jobId, "UPDATE job_score SET " + column + " = " + column + " || ?"
                + " WHERE job_id = ? AND position(? in " + column + " || ',') = 0",
                "," + operation.id(), jobId, "," + operation.id() + ",");
        if (!Boolean.FALSE.equals(changed)) {
            jdbc.update("record a change of job " + jobId,
                    "UPDATE job_score SET last_change_at = greatest(last_change_at, ?) WHERE job_id = ?",
                    Timestamp.from(finishedAt), jobId);
        }
    }

    /**
     * Records the end of a job; returns it as the planner knows it. A job that reports succeeded
     * operations of which no report arrived here counts as changed at its end: only a grade after
     * that shows what it did.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public FinishedJob recordFinished(String jobId, String planId, TableId table, JobOutcome outcome, int operationsSucceeded,
                                      Instant finishedAt, String correlationId, String actor) {
        jdbc.update("record the end of job " + jobId, """
                INSERT INTO job_score (job_id, plan_id, table_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING""",
                jobId, planId, table.toString());
        jdbc.update("record the end of job " + jobId, """
                UPDATE job_score SET outcome = ?, finished_at = ?, correlation_id = ?, actor = ? WHERE job_id = ?""",
                outcome.id(), Timestamp.from(finishedAt), correlationId, actor, jobId);
        if (operationsSucceeded > 0) {
            jdbc.update("record the end of job " + jobId, """
                    UPDATE job_score SET last_change_at = ? WHERE job_id = ? AND changed_operations = ''
                    AND noop_operations = ''""", Timestamp.from(finishedAt), jobId);
        }
        return finished(jobId).orElseThrow();
    }

    /** A finished job that has no score yet. */
    public Optional<FinishedJob> finished(String jobId) {
        List<FinishedJob> jobs = finishedJobs("SELECT job_id, plan_id, table_id, outcome, changed_operations, noop_operations,"
                + " last_change_at, finished_at FROM job_score WHERE job_id = ? AND finished_at IS NOT NULL"
                + " AND scored_at IS NULL", jobId);
        return jobs.stream().findFirst();
    }

    /** The table's finished jobs that wait for their score, oldest first. */
    public List<FinishedJob> waiting(TableId table) {
        return finishedJobs("SELECT job_id, plan_id, table_id, outcome, changed_operations, noop_operations, last_change_at,"
                + " finished_at FROM job_score WHERE table_id = ? AND finished_at IS NOT NULL AND scored_at IS NULL"
                + " ORDER BY finished_at, job_id", table.toString());
    }

    /** Finished jobs of any table that still wait for their score after {@code finishedBefore}, locked for the caller. */
    @Transactional(Transactional.TxType.MANDATORY)
    public List<FinishedJob> waitingSince(Instant finishedBefore, int limit) {
        return finishedJobs("SELECT job_id, plan_id, table_id, outcome, changed_operations, noop_operations, last_change_at,"
                + " finished_at FROM job_score WHERE finished_at < ? AND scored_at IS NULL ORDER BY finished_at"
                + " LIMIT ? FOR UPDATE SKIP LOCKED", Timestamp.from(finishedBefore), limit);
    }

    /**
     * Stores a job's score with the envelope attributes it is published with; empty when the job
     * was scored meanwhile (the sweep and a grade at the same moment): a job is scored once.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public Optional<StoredScore> saveScore(JobScored score, String eventId, String triggerEventId) {
        int updated = jdbc.update("store the score of job " + score.jobId(), """
                UPDATE job_score SET scored_at = ?, event_id = ?, trigger_event_id = ?, payload = ?
                WHERE job_id = ? AND scored_at IS NULL""",
                Timestamp.from(score.scoredAt()), eventId, triggerEventId, Jdbc.json(score), score.jobId());
        return updated == 0 ? Optional.empty()
                : Optional.of(scores("SELECT " + SCORE_COLUMNS + " FROM job_score WHERE job_id = ?", score.jobId()).get(0));
    }

    /** Drops a job that cannot be scored (its plan is unknown here). */
    @Transactional(Transactional.TxType.MANDATORY)
    public void forget(String jobId) {
        jdbc.update("forget job " + jobId, "DELETE FROM job_score WHERE job_id = ?", jobId);
    }

    /** The scores that handling {@code eventId} produced, to publish (again). */
    public List<StoredScore> scoresTriggeredBy(String eventId) {
        return scores("SELECT " + SCORE_COLUMNS + " FROM job_score WHERE trigger_event_id = ? AND payload IS NOT NULL"
                + " ORDER BY scored_at, job_id", eventId);
    }

    /** A job's score, if it has one. */
    public Optional<StoredScore> score(String jobId) {
        return scores("SELECT " + SCORE_COLUMNS + " FROM job_score WHERE job_id = ? AND payload IS NOT NULL", jobId)
                .stream().findFirst();
    }

    /** The scores of a plan's jobs, newest first. */
    public List<StoredScore> scoresOfPlan(String planId) {
        return scores("SELECT " + SCORE_COLUMNS + " FROM job_score WHERE plan_id = ? AND payload IS NOT NULL"
                + " ORDER BY scored_at DESC, job_id", planId);
    }

    /** Scores of jobs that finished at or after {@code since}, of one table or all, newest first. */
    public List<StoredScore> scores(Optional<TableId> table, Instant since, int limit) {
        return table.isPresent()
                ? scores("SELECT " + SCORE_COLUMNS + " FROM job_score WHERE table_id = ? AND finished_at >= ?"
                + " AND payload IS NOT NULL ORDER BY finished_at DESC, job_id LIMIT ?", table.get().toString(),
                Timestamp.from(since), limit)
                : scores("SELECT " + SCORE_COLUMNS + " FROM job_score WHERE finished_at >= ? AND payload IS NOT NULL"
                + " ORDER BY finished_at DESC, job_id LIMIT ?", Timestamp.from(since), limit);
    }

    private List<FinishedJob> finishedJobs(String sql, Object... parameters) {
        return jdbc.query("read finished jobs", connection -> {
            try (PreparedStatement select = connection.prepareStatement(sql)) {
                Jdbc.bind(select, parameters);
                List<FinishedJob> jobs = new ArrayList<>();
                try (ResultSet row = select.executeQuery()) {
                    while (row.next()) {
                        jobs.add(finishedJob(row));
                    }
                }
                return jobs;
            }
        });
    }

    private static FinishedJob finishedJob(ResultSet row) throws SQLException {
        Timestamp lastChange = row.getTimestamp(7);
        Set<Operation> changed = operations(row.getString(5));
        Set<Operation> noOps = operations(row.getString(6));
        noOps.removeAll(changed);
        return new FinishedJob(row.getString(1), row.getString(2), TableId.parse(row.getString(3)),
                JobOutcome.fromId(row.getString(4)), changed, noOps, lastChange == null ? null : lastChange.toInstant(),
                row.getTimestamp(8).toInstant());
    }

    private List<StoredScore> scores(String sql, Object... parameters) {
        return jdbc.query("read job scores", connection -> {
            try (PreparedStatement select = connection.prepareStatement(sql)) {
                Jdbc.bind(select, parameters);
                List<StoredScore> scores = new ArrayList<>();
                try (ResultSet row = select.executeQuery()) {
                    while (row.next()) {
                        scores.add(new StoredScore(row.getString(1), row.getString(2), row.getString(3),
                                Jdbc.read(row.getString(4), JobScored.class)));
                    }
                }
                return scores;
            }
        });
    }

    /** ",optimize,expire_snapshots" → the operations. */
    private static Set<Operation> operations(String text) {
        Set<Operation> operations = EnumSet.noneOf(Operation.class);
        Arrays.stream(text.split(",")).filter(id -> !id.isBlank()).map(Operation::fromId).forEach(operations::add);
        return operations;
    }
}
