package dev.cryo.executor.persistence;

import dev.cryo.contracts.event.JobFinished;
import dev.cryo.contracts.event.OperationFinished;
import dev.cryo.contracts.json.EventJson;
import dev.cryo.executor.engine.StepKey;
import dev.cryo.platform.error.CommonErrorCode;
import dev.cryo.platform.error.CryoException;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Job attempts and their steps in PostgreSQL: the executor's memory across crashes and
 * redeliveries. Times are the database's, so executors with skewed clocks agree on whose
 * heartbeat is stale. Plain JDBC: taking an attempt over is one conditional upsert on that clock
 * ({@code ON CONFLICT ... WHERE heartbeat_at < now() - lease ... RETURNING}).
 */
@ApplicationScoped
public class JobAttempts {

    /** What claiming a job found. */
    public sealed interface Claim permits Claimed, Finished, Held {
    }

    /** This executor now owns the job: attempt 1 for a new job, higher after a takeover or redelivery. */
    public record Claimed(int attempt) implements Claim {
    }

    /** The job ended before: its JobFinished event, to publish again. */
    public record Finished(String eventId, JobFinished event) implements Claim {
    }

    /** Another executor runs it and its heartbeat is fresh. */
    public record Held(String owner, Duration heartbeatAge) implements Claim {
    }

    /** A recorded step with the event published for it. */
    public record StoredStep(StepKey step, int attempt, String eventId, OperationFinished event) {
    }

    /** A job as the REST API shows it. */
    public record JobRecord(String jobId, String planId, String table, String owner, int attempt, String state,
                            Instant startedAt, Instant heartbeatAt, Instant finishedAt, String outcome, String errorCode,
                            String message) {
    }

    private final AgroalDataSource dataSource;

    JobAttempts(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * Claims the job for {@code owner}: inserts it, or takes it over when its owner is this same
     * executor or has not heart-beaten for {@code leaseTimeout}.
     */
    public Claim claim(String jobId, String planId, String table, String owner, Duration leaseTimeout) {
        String sql = """
                INSERT INTO job_attempt (job_id, plan_id, table_id, owner, attempt, state)
                VALUES (?, ?, ?, ?, 1, 'running')
                ON CONFLICT (job_id) DO UPDATE
                   SET owner = EXCLUDED.owner, attempt = job_attempt.attempt + 1,
                       started_at = now(), heartbeat_at = now()
                 WHERE job_attempt.state = 'running'
                   AND (job_attempt.owner = EXCLUDED.owner
                        OR job_attempt.heartbeat_at < now() - ? * interval '1 millisecond')
                RETURNING attempt""";
        try (Connection connection = dataSource.getConnection();
             PreparedStatement claim = connection.prepareStatement(sql)) {
            claim.setString(1, jobId);
            claim.setString(2, planId);
            claim.setString(3, table);
            claim.setString(4, owner);
            claim.setLong(5, leaseTimeout.toMillis());
            try (ResultSet claimed = claim.executeQuery()) {
                if (claimed.next()) {
                    return new Claimed(claimed.getInt(1));
                }
            }
            try (PreparedStatement select = connection.prepareStatement("""
                    SELECT state, owner, finished_event_id, finished_event,
                           EXTRACT(EPOCH FROM (now() - heartbeat_at)) * 1000
                      FROM job_attempt WHERE job_id = ?""")) {
                select.setString(1, jobId);
                try (ResultSet row = select.executeQuery()) {
                    if (!row.next()) {
                        throw new CryoException(CommonErrorCode.INTERNAL_ERROR, "Cannot claim job " + jobId
                                + ": its row vanished");
                    }
                    if ("finished".equals(row.getString(1))) {
                        return new Finished(row.getString(3), EventJson.read(bytes(row.getString(4)), JobFinished.class));
                    }
                    return new Held(row.getString(2), Duration.ofMillis(row.getLong(5)));
                }
            }
        } catch (SQLException e) {
            throw unavailable("claim job " + jobId, e);
        }
    }

    /**
     * When each other job running on the table started: running, and its heartbeat younger than
     * {@code leaseTimeout} (an older one is a job no executor runs any more).
     */
    public List<Instant> othersStarted(String table, String jobId, Duration leaseTimeout) {
        List<Instant> started = new ArrayList<>();
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement("""
                     SELECT started_at FROM job_attempt
                      WHERE table_id = ? AND job_id <> ? AND state = 'running'
                        AND heartbeat_at >= now() - ? * interval '1 millisecond'""")) {
            select.setString(1, table);
            select.setString(2, jobId);
            select.setLong(3, leaseTimeout.toMillis());
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    started.add(rows.getTimestamp(1).toInstant());
                }
            }
        } catch (SQLException e) {
            throw unavailable("read the jobs running on " + table, e);
        }
        return started;
    }

    /** The job's result if it finished before: read only, claims nothing. */
    public Optional<Finished> finished(String jobId) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(
                     "SELECT finished_event_id, finished_event FROM job_attempt WHERE job_id = ? AND state = 'finished'")) {
            select.setString(1, jobId);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? Optional.of(new Finished(row.getString(1),
                        EventJson.read(bytes(row.getString(2)), JobFinished.class))) : Optional.empty();
            }
        } catch (SQLException e) {
            throw unavailable("read whether job " + jobId + " finished", e);
        }
    }

    /**
     * Another executor that runs the job now, its heartbeat younger than {@code leaseTimeout}: read
     * only. A record of a running job comes again when the consumer group rebalances.
     */
    public Optional<Held> heldElsewhere(String jobId, String owner, Duration leaseTimeout) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement("""
                     SELECT owner, EXTRACT(EPOCH FROM (now() - heartbeat_at)) * 1000 FROM job_attempt
                      WHERE job_id = ? AND state = 'running' AND owner <> ?
                        AND heartbeat_at >= now() - ? * interval '1 millisecond'""")) {
            select.setString(1, jobId);
            select.setString(2, owner);
            select.setLong(3, leaseTimeout.toMillis());
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? Optional.of(new Held(row.getString(1), Duration.ofMillis(row.getLong(2)))) : Optional.empty();
            }
        } catch (SQLException e) {
            throw unavailable("read who runs job " + jobId, e);
        }
    }

    /** Renews the owner's heartbeat; false when another executor took the job over. */
    public boolean heartbeat(String jobId, String owner) {
        return update("renew the heartbeat of job " + jobId,
                "UPDATE job_attempt SET heartbeat_at = now() WHERE job_id = ? AND owner = ? AND state = 'running'",
                jobId, owner) == 1;
    }

    /** Records a step's result (replacing a failed one of an earlier attempt). */
    public void recordStep(String jobId, StepKey step, int attempt, String eventId, OperationFinished event) {
        String sql = """
                INSERT INTO job_step (job_id, step, attempt, status, snapshot_id, event_id, event)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (job_id, step) DO UPDATE
                   SET attempt = EXCLUDED.attempt, status = EXCLUDED.status, snapshot_id = EXCLUDED.snapshot_id,
                       event_id = EXCLUDED.event_id, event = EXCLUDED.event, recorded_at = now()""";
        try (Connection connection = dataSource.getConnection();
             PreparedStatement insert = connection.prepareStatement(sql)) {
            insert.setString(1, jobId);
            insert.setString(2, step.toString());
            insert.setInt(3, attempt);
            insert.setString(4, event.status().id());
            if (event.committedSnapshotId() == null) {
                insert.setNull(5, Types.BIGINT);
            } else {
                insert.setLong(5, event.committedSnapshotId());
            }
            insert.setString(6, eventId);
            insert.setString(7, EventJson.writeString(event));
            insert.executeUpdate();
        } catch (SQLException e) {
            throw unavailable("record step " + step + " of job " + jobId, e);
        }
    }

    /** The job's recorded steps. */
    public Map<StepKey, StoredStep> steps(String jobId) {
        Map<StepKey, StoredStep> steps = new LinkedHashMap<>();
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(
                     "SELECT step, attempt, event_id, event FROM job_step WHERE job_id = ? ORDER BY recorded_at")) {
            select.setString(1, jobId);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    StepKey step = StepKey.parse(rows.getString(1));
                    steps.put(step, new StoredStep(step, rows.getInt(2), rows.getString(3),
                            EventJson.read(bytes(rows.getString(4)), OperationFinished.class)));
                }
            }
        } catch (SQLException e) {
            throw unavailable("read the steps of job " + jobId, e);
        }
        return steps;
    }

    /** Marks the job finished by its owner; false when another executor took it over meanwhile. */
    public boolean finish(String jobId, String owner, String eventId, JobFinished event) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement update = connection.prepareStatement("""
                     UPDATE job_attempt SET state = 'finished', finished_at = now(), outcome = ?, error_code = ?,
                            message = ?, finished_event_id = ?, finished_event = ?
                      WHERE job_id = ? AND owner = ? AND state = 'running'""")) {
            update.setString(1, event.outcome().id());
            update.setString(2, event.errorCode());
            update.setString(3, event.message());
            update.setString(4, eventId);
            update.setString(5, EventJson.writeString(event));
            update.setString(6, jobId);
            update.setString(7, owner);
            return update.executeUpdate() == 1;
        } catch (SQLException e) {
            throw unavailable("finish job " + jobId, e);
        }
    }

    public Optional<JobRecord> find(String jobId) {
        List<JobRecord> found = query("SELECT " + COLUMNS + " FROM job_attempt WHERE job_id = ?", jobId, 1);
        return found.stream().findFirst();
    }

    /** The newest jobs first. */
    public List<JobRecord> recent(int limit) {
        return query("SELECT " + COLUMNS + " FROM job_attempt ORDER BY started_at DESC", null, limit);
    }

    private static final String COLUMNS = "job_id, plan_id, table_id, owner, attempt, state, started_at, heartbeat_at,"
            + " finished_at, outcome, error_code, message";

    private List<JobRecord> query(String sql, String jobId, int limit) {
        List<JobRecord> jobs = new ArrayList<>();
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(sql + " LIMIT ?")) {
            int index = 1;
            if (jobId != null) {
                select.setString(index++, jobId);
            }
            select.setInt(index, limit);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    jobs.add(new JobRecord(rows.getString(1), rows.getString(2), rows.getString(3), rows.getString(4),
                            rows.getInt(5), rows.getString(6), instant(rows.getTimestamp(7)), instant(rows.getTimestamp(8)),
                            instant(rows.getTimestamp(9)), rows.getString(10), rows.getString(11), rows.getString(12)));
                }
            }
        } catch (SQLException e) {
            throw unavailable("read jobs", e);
        }
        return jobs;
    }

    private int update(String action, String sql, String... parameters) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement update = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                update.setString(i + 1, parameters[i]);
            }
            return update.executeUpdate();
        } catch (SQLException e) {
            throw unavailable(action, e);
        }
    }

    private static Instant instant(Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }

    private static byte[] bytes(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }

    private static CryoException unavailable(String action, SQLException e) {
        return new CryoException(CommonErrorCode.DEPENDENCY_UNAVAILABLE, "Cannot " + action + ": " + e.getMessage(), e);
    }
}
