package dev.cryo.governor.persistence;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.TableId;
import dev.cryo.governor.domain.FailureStreak;
import dev.cryo.governor.domain.RunningJob;
import dev.cryo.governor.domain.StalePlans;
import dev.cryo.governor.domain.TableLock;
import jakarta.enterprise.context.ApplicationScoped;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static dev.cryo.governor.persistence.Jdbc.instant;
import static dev.cryo.governor.persistence.Jdbc.nullableInt;

/**
 * Jobs, the table locks they hold and the per-table serialisation of decisions. Callers hold a transaction.
 * Plain JDBC: decisions are ordered by advisory locks and a table lock is an insert-if-absent lease.
 */
@ApplicationScoped
public class JobStore {

    /** A job as the governor tracks it. */
    public record Job(String jobId, String planId, TableId table, Engine engine, int slot, int attempt,
                      Instant admittedAt, String admittedBy, Instant startedAt, String executorId,
                      Instant lastHeartbeatAt, String operation, Integer chunksDone, Integer chunksTotal,
                      Instant finishedAt, String outcome, String note, Instant leaseExpiresAt) {

        public boolean isFinished() {
            return finishedAt != null;
        }
    }

    private static final String JOB_COLUMNS = "j.job_id, j.plan_id, j.table_id, j.engine, j.slot, j.attempt, "
            + "j.admitted_at, j.admitted_by, j.started_at, j.executor_id, j.last_heartbeat_at, j.operation, "
            + "j.chunks_done, j.chunks_total, j.finished_at, j.outcome, j.note, l.lease_expires_at";
    private static final String JOB_FROM = " FROM job j LEFT JOIN table_lock l ON l.job_id = j.job_id ";

    private final Jdbc jdbc;

    JobStore(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Serialises every change that concerns one table, across governor instances, until the
     * transaction ends: decisions, releases and lease renewals of a table never interleave, so
     * no release is missed by a decision that read the lock just before it went.
     */
    public void serialize(TableId table) {
        jdbc.query("SELECT pg_advisory_xact_lock(hashtextextended(current_schema() || '/' || ?, 0)) IS NULL AS locked",
                row -> row.getBoolean("locked"), table.toString());
    }

    /**
     * Like {@link #serialize} but gives up at once when another transaction holds the table: a
     * decision pass then leaves the plan for its next round instead of queueing behind another
     * instance that is deciding it already.
     */
    public boolean trySerialize(TableId table) {
        return jdbc.queryOne("SELECT pg_try_advisory_xact_lock(hashtextextended(current_schema() || '/' || ?, 0)) "
                + "AS locked", row -> row.getBoolean("locked"), table.toString()).orElse(false);
    }

    public Optional<TableLock> lockOf(TableId table) {
        return jdbc.queryOne("SELECT l.table_id, l.job_id, j.plan_id, l.lease_expires_at FROM table_lock l "
                + "JOIN job j ON j.job_id = l.job_id WHERE l.table_id = ?", JobStore::tableLock, table.toString());
    }

    public List<TableLock> locks() {
        return jdbc.query("SELECT l.table_id, l.job_id, j.plan_id, l.lease_expires_at FROM table_lock l "
                + "JOIN job j ON j.job_id = l.job_id ORDER BY l.table_id", JobStore::tableLock);
    }

    /** Locks whose lease ended before {@code now}: candidates for re-admission. */
    public List<TableLock> expiredLocks(Instant now, int limit) {
        return jdbc.query("SELECT l.table_id, l.job_id, j.plan_id, l.lease_expires_at FROM table_lock l "
                + "JOIN job j ON j.job_id = l.job_id WHERE l.lease_expires_at <= ? ORDER BY l.lease_expires_at LIMIT ?",
                JobStore::tableLock, now, limit);
    }

    /** Takes the table's lock; false when another job holds it. */
    public boolean acquire(TableId table, String jobId, Instant now, Instant leaseExpiresAt) {
        return jdbc.update("INSERT INTO table_lock (table_id, job_id, acquired_at, lease_expires_at) VALUES (?, ?, ?, ?) "
                + "ON CONFLICT (table_id) DO NOTHING", table.toString(), jobId, now, leaseExpiresAt) == 1;
    }

    /** Extends the job's lease, never shortening it; false when the job holds no lock. */
    public boolean renewLease(String jobId, Instant leaseExpiresAt) {
        return jdbc.update("UPDATE table_lock SET lease_expires_at = GREATEST(lease_expires_at, ?) WHERE job_id = ?",
                leaseExpiresAt, jobId) == 1;
    }

    public void release(String jobId) {
        jdbc.update("DELETE FROM table_lock WHERE job_id = ?", jobId);
    }

    public void insert(String jobId, String planId, TableId table, Engine engine, int slot, Instant admittedAt,
                       String admittedBy) {
        jdbc.update("INSERT INTO job (job_id, plan_id, table_id, engine, slot, attempt, admitted_at, admitted_by) "
                + "VALUES (?, ?, ?, ?, ?, 1, ?, ?)", jobId, planId, table.toString(), engine.id(), slot, admittedAt,
                admittedBy);
    }

    public Optional<Job> find(String jobId) {
        return jdbc.queryOne("SELECT " + JOB_COLUMNS + JOB_FROM + "WHERE j.job_id = ?", JobStore::job, jobId);
    }

    /** Locks a job row for a change. */
    public Optional<Job> lock(String jobId) {
        return jdbc.queryOne("SELECT " + JOB_COLUMNS + JOB_FROM + "WHERE j.job_id = ? FOR UPDATE OF j", JobStore::job,
                jobId);
    }

    public void started(String jobId, String executorId, Instant startedAt) {
        jdbc.update("UPDATE job SET started_at = COALESCE(started_at, ?), executor_id = ?, last_heartbeat_at = ? "
                + "WHERE job_id = ?", startedAt, executorId, startedAt, jobId);
    }

    public void heartbeat(String jobId, String executorId, Instant at, String operation, Integer chunksDone,
                          Integer chunksTotal) {
        jdbc.update("UPDATE job SET executor_id = ?, last_heartbeat_at = ?, started_at = COALESCE(started_at, ?), "
                        + "operation = COALESCE(?, operation), chunks_done = COALESCE(?, chunks_done), "
                        + "chunks_total = COALESCE(?, chunks_total) WHERE job_id = ?",
                executorId, at, at, operation, chunksDone, chunksTotal, jobId);
    }

    public void readmitted(String jobId, int attempt, String admittedBy, Instant at, String note) {
        jdbc.update("UPDATE job SET attempt = ?, admitted_by = ?, admitted_at = ?, started_at = NULL, "
                + "executor_id = NULL, note = ? WHERE job_id = ?", attempt, admittedBy, at, note, jobId);
    }

    /** Replaces the job's note: what the console and the CLI show about it. */
    public void note(String jobId, String note) {
        jdbc.update("UPDATE job SET note = ? WHERE job_id = ?", note, jobId);
    }

    public void finish(String jobId, Instant finishedAt, String outcome, String errorCode, String note) {
        jdbc.update("UPDATE job SET finished_at = ?, outcome = ?, error_code = ?, note = COALESCE(?, note) WHERE job_id = ?",
                finishedAt, outcome, errorCode, note, jobId);
    }

    /** The table's latest finished jobs since an operator last resumed it, newest first. */
    public List<FailureStreak.FinishedJob> finishedSinceResume(TableId table, int limit) {
        return jdbc.query("SELECT outcome, error_code, note, finished_at FROM job WHERE table_id = ? AND finished_at IS NOT NULL"
                        + " AND finished_at > COALESCE((SELECT resumed_at FROM table_resume WHERE table_id = ?), '-infinity')"
                        + " ORDER BY finished_at DESC LIMIT ?",
                row -> new FailureStreak.FinishedJob(row.getString("outcome"), row.getString("error_code"),
                        row.getString("note"), instant(row, "finished_at")), table.toString(), table.toString(), limit);
    }

    /** Records that an operator resumed the table: the jobs that failed before no longer count. */
    public void resume(TableId table, String actor, Instant at) {
        jdbc.update("INSERT INTO table_resume (table_id, resumed_at, resumed_by) VALUES (?, ?, ?)"
                + " ON CONFLICT (table_id) DO UPDATE SET resumed_at = EXCLUDED.resumed_at, resumed_by = EXCLUDED.resumed_by",
                table.toString(), at, actor);
    }

    public List<RunningJob> running(Engine engine) {
        return jdbc.query("SELECT job_id, table_id, engine, slot FROM job WHERE finished_at IS NULL AND engine = ?",
                row -> new RunningJob(row.getString("job_id"), TableId.parse(row.getString("table_id")),
                        Engine.fromId(row.getString("engine")), row.getInt("slot")), engine.id());
    }

    public List<Job> unfinished() {
        return jdbc.query("SELECT " + JOB_COLUMNS + JOB_FROM + "WHERE j.finished_at IS NULL ORDER BY j.admitted_at",
                JobStore::job);
    }

    /** Records a snapshot the job committed, keeping the latest. */
    public void committed(String jobId, long snapshotId, Instant at) {
        jdbc.update("UPDATE job SET last_commit_snapshot_id = ?, last_commit_at = ? WHERE job_id = ? "
                + "AND (last_commit_at IS NULL OR last_commit_at <= ?)", snapshotId, at, jobId, at);
    }

    /** The table's latest commit by any job, running or finished. */
    public Optional<StalePlans.LastCommit> lastCommit(TableId table) {
        return jdbc.queryOne("SELECT job_id, last_commit_snapshot_id, last_commit_at FROM job "
                        + "WHERE table_id = ? AND last_commit_at IS NOT NULL ORDER BY last_commit_at DESC LIMIT 1",
                row -> new StalePlans.LastCommit(row.getString("job_id"), row.getLong("last_commit_snapshot_id"),
                        instant(row, "last_commit_at")), table.toString());
    }

    public Optional<Instant> lastFinish(TableId table) {
        return jdbc.queryOne("SELECT max(finished_at) AS last FROM job WHERE table_id = ?",
                row -> instant(row, "last"), table.toString());
    }

    public int inUse(Engine engine) {
        return jdbc.queryOne("SELECT count(*) AS used FROM job WHERE finished_at IS NULL AND engine = ?",
                row -> row.getInt("used"), engine.id()).orElse(0);
    }

    private static TableLock tableLock(ResultSet row) throws SQLException {
        return new TableLock(TableId.parse(row.getString("table_id")), row.getString("job_id"), row.getString("plan_id"),
                instant(row, "lease_expires_at"));
    }

    private static Job job(ResultSet row) throws SQLException {
        return new Job(row.getString("job_id"), row.getString("plan_id"), TableId.parse(row.getString("table_id")),
                Engine.fromId(row.getString("engine")), row.getInt("slot"), row.getInt("attempt"),
                instant(row, "admitted_at"), row.getString("admitted_by"), instant(row, "started_at"),
                row.getString("executor_id"), instant(row, "last_heartbeat_at"), row.getString("operation"),
                nullableInt(row, "chunks_done"), nullableInt(row, "chunks_total"), instant(row, "finished_at"),
                row.getString("outcome"), row.getString("note"), instant(row, "lease_expires_at"));
    }
}
