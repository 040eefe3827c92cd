package dev.cryo.executor.persistence;

import dev.cryo.contracts.event.JobRevoked;
import dev.cryo.platform.error.CommonErrorCode;
import dev.cryo.platform.error.CryoException;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.Optional;

/**
 * Jobs withdrawn because their table was paused after admission, shared by every executor through PostgreSQL.
 * Plain JDBC: a revocation is stored once, by whichever executor records it first ({@code ON CONFLICT DO NOTHING}).
 */
@ApplicationScoped
public class JobRevocations {

    private final AgroalDataSource dataSource;

    JobRevocations(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Notes a revocation; a redelivered one changes nothing. */
    public void note(JobRevoked revoked) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement insert = connection.prepareStatement("""
                     INSERT INTO job_revocation (job_id, plan_id, table_id, pause_id, message, revoked_at)
                     VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (job_id) DO NOTHING""")) {
            insert.setString(1, revoked.jobId());
            insert.setString(2, revoked.planId());
            insert.setString(3, revoked.table().toString());
            insert.setString(4, revoked.pauseId());
            insert.setString(5, revoked.message());
            insert.setTimestamp(6, Timestamp.from(revoked.revokedAt()));
            insert.executeUpdate();
        } catch (SQLException e) {
            throw new CryoException(CommonErrorCode.DEPENDENCY_UNAVAILABLE, "Cannot note the revocation of job "
                    + revoked.jobId() + ": " + e.getMessage(), e);
        }
    }

    /** Why the job was withdrawn, if it was. */
    public Optional<String> of(String jobId) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(
                     "SELECT message, pause_id FROM job_revocation WHERE job_id = ?")) {
            select.setString(1, jobId);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? Optional.of(row.getString(1) + " (pause " + row.getString(2) + ")") : Optional.empty();
            }
        } catch (SQLException e) {
            throw new CryoException(CommonErrorCode.DEPENDENCY_UNAVAILABLE, "Cannot read whether job " + jobId
                    + " was revoked: " + e.getMessage(), e);
        }
    }
}
