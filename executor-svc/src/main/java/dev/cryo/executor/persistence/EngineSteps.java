package dev.cryo.executor.persistence;

import dev.cryo.contracts.Engine;
import dev.cryo.executor.engine.StepKey;
import dev.cryo.executor.engine.EngineStepLog;
import dev.cryo.platform.error.CommonErrorCode;
import dev.cryo.platform.error.CryoException;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/**
 * The engine-step log in PostgreSQL (table {@code engine_step}). Plain JDBC: a step's start is one upsert
 * stamped with the database's clock ({@code clock_timestamp()}), whichever executor runs it.
 */
@ApplicationScoped
public class EngineSteps implements EngineStepLog {

    private final AgroalDataSource dataSource;

    EngineSteps(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    @Override
    public void started(String jobId, StepKey step, Engine engine, Long startSnapshotId) {
        String sql = """
                INSERT INTO engine_step (job_id, step, engine, start_snapshot_id)
                VALUES (?, ?, ?, ?)
                ON CONFLICT (job_id, step) DO UPDATE
                   SET engine = EXCLUDED.engine, start_snapshot_id = EXCLUDED.start_snapshot_id,
                       started_at = clock_timestamp()""";
        try (Connection connection = dataSource.getConnection();
             PreparedStatement insert = connection.prepareStatement(sql)) {
            insert.setString(1, jobId);
            insert.setString(2, step.toString());
            insert.setString(3, engine.id());
            if (startSnapshotId == null) {
                insert.setNull(4, Types.BIGINT);
            } else {
                insert.setLong(4, startSnapshotId);
            }
            insert.executeUpdate();
        } catch (SQLException e) {
            throw unavailable("record the start of step " + step + " of job " + jobId, e);
        }
    }

    @Override
    public List<StartedStep> started(String jobId) {
        List<StartedStep> steps = new ArrayList<>();
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(
                     "SELECT step, engine, start_snapshot_id, started_at FROM engine_step WHERE job_id = ? ORDER BY started_at")) {
            select.setString(1, jobId);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    long snapshot = rows.getLong(3);
                    steps.add(new StartedStep(StepKey.parse(rows.getString(1)), Engine.fromId(rows.getString(2)),
                            rows.wasNull() ? null : snapshot, rows.getTimestamp(4).toInstant()));
                }
            }
        } catch (SQLException e) {
            throw unavailable("read the engine steps of job " + jobId, e);
        }
        return steps;
    }

    private static CryoException unavailable(String action, SQLException e) {
        return new CryoException(CommonErrorCode.DEPENDENCY_UNAVAILABLE, "Cannot " + action + ": " + e.getMessage(), e);
    }
}
