package dev.cryo.executor.persistence;

import dev.cryo.contracts.TableId;
import dev.cryo.executor.engine.OrphanBrakeReleases;
import dev.cryo.platform.error.CommonErrorCode;
import dev.cryo.platform.error.CryoException;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Operators' releases of the orphan share brake in PostgreSQL (table {@code orphan_brake_release}).
 * Plain JDBC like the other executor stores: taking a release must claim one row atomically
 * ({@code FOR UPDATE SKIP LOCKED}) so two executors never both use it.
 */
@ApplicationScoped
public class BrakeReleases implements OrphanBrakeReleases {

    /** How long a release waits for the run it is meant for. */
    public static final Duration VALIDITY = Duration.ofHours(24);

    /** A release as stored. */
    public record StoredRelease(long id, String table, String operator, String reason, Instant releasedAt,
                                Instant expiresAt, String usedByJob, Instant usedAt) {
    }

    private final AgroalDataSource dataSource;

    BrakeReleases(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Records an operator's release of the brake for the table's next run. */
    public StoredRelease release(TableId table, String operator, String reason) {
        String sql = """
                INSERT INTO orphan_brake_release (table_id, operator, reason, expires_at)
                VALUES (?, ?, ?, now() + ? * interval '1 millisecond')
                RETURNING id, table_id, operator, reason, released_at, expires_at, used_by_job, used_at""";
        try (Connection connection = dataSource.getConnection();
             PreparedStatement insert = connection.prepareStatement(sql)) {
            insert.setString(1, table.toString());
            insert.setString(2, operator);
            insert.setString(3, reason);
            insert.setLong(4, VALIDITY.toMillis());
            try (ResultSet row = insert.executeQuery()) {
                row.next();
                return read(row);
            }
        } catch (SQLException e) {
            throw unavailable("record the release of the orphan brake of " + table, e);
        }
    }

    @Override
    public Optional<Release> take(TableId table, String jobId) {
        String sql = """
                UPDATE orphan_brake_release SET used_by_job = ?, used_at = now()
                 WHERE id = (SELECT id FROM orphan_brake_release
                              WHERE table_id = ? AND used_by_job IS NULL AND expires_at > now()
                              ORDER BY released_at LIMIT 1 FOR UPDATE SKIP LOCKED)
                RETURNING operator, released_at, reason""";
        try (Connection connection = dataSource.getConnection();
             PreparedStatement update = connection.prepareStatement(sql)) {
            update.setString(1, jobId);
            update.setString(2, table.toString());
            try (ResultSet row = update.executeQuery()) {
                if (!row.next()) {
                    return Optional.empty();
                }
                return Optional.of(new Release(row.getString(1), row.getTimestamp(2).toInstant(), row.getString(3)));
            }
        } catch (SQLException e) {
            throw unavailable("take the release of the orphan brake of " + table, e);
        }
    }

    /** The table's releases, newest first. */
    public List<StoredRelease> of(TableId table, int limit) {
        List<StoredRelease> releases = new ArrayList<>();
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement("""
                     SELECT id, table_id, operator, reason, released_at, expires_at, used_by_job, used_at
                       FROM orphan_brake_release WHERE table_id = ? ORDER BY released_at DESC LIMIT ?""")) {
            select.setString(1, table.toString());
            select.setInt(2, limit);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    releases.add(read(rows));
                }
            }
        } catch (SQLException e) {
            throw unavailable("read the releases of the orphan brake of " + table, e);
        }
        return releases;
    }

    private static StoredRelease read(ResultSet row) throws SQLException {
        return new StoredRelease(row.getLong(1), row.getString(2), row.getString(3), row.getString(4),
                instant(row.getTimestamp(5)), instant(row.getTimestamp(6)), row.getString(7), instant(row.getTimestamp(8)));
    }

    private static Instant instant(Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }

    private static CryoException unavailable(String action, SQLException e) {
        return new CryoException(CommonErrorCode.DEPENDENCY_UNAVAILABLE, "Cannot " + action + ": " + e.getMessage(), e);
    }
}
