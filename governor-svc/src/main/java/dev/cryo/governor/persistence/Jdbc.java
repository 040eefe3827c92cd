package dev.cryo.governor.persistence;

import dev.cryo.governor.GovernorErrorCode;
import dev.cryo.platform.error.CryoException;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Plain JDBC on the service's data source. Statements join the caller's transaction (the
 * data source enlists its connections in JTA), so a decision and its rows commit together.
 */
@ApplicationScoped
public class Jdbc {

    /** Reads one row. */
    @FunctionalInterface
    public interface Row<T> {
        T map(ResultSet row) throws SQLException;
    }

    private final AgroalDataSource dataSource;

    Jdbc(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    public <T> List<T> query(String sql, Row<T> mapper, Object... parameters) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = prepare(connection, sql, parameters);
             ResultSet rows = statement.executeQuery()) {
            List<T> result = new ArrayList<>();
            while (rows.next()) {
                result.add(mapper.map(rows));
            }
            return result;
        } catch (SQLException e) {
            throw failure(sql, e);
        }
    }

    public <T> Optional<T> queryOne(String sql, Row<T> mapper, Object... parameters) {
        List<T> rows = query(sql, mapper, parameters);
        return rows.isEmpty() ? Optional.empty() : Optional.ofNullable(rows.get(0));
    }

    public int update(String sql, Object... parameters) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = prepare(connection, sql, parameters)) {
            return statement.executeUpdate();
        } catch (SQLException e) {
            throw failure(sql, e);
        }
    }

    /** A timestamp column as an instant, or null. */
    public static Instant instant(ResultSet row, String column) throws SQLException {
        OffsetDateTime value = row.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }

    /** An int column that may be NULL. */
    public static Integer nullableInt(ResultSet row, String column) throws SQLException {
        int value = row.getInt(column);
        return row.wasNull() ? null : value;
    }

    private static PreparedStatement prepare(Connection connection, String sql, Object... parameters) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        for (int i = 0; i < parameters.length; i++) {
            Object value = parameters[i];
            if (value instanceof Instant instant) {
                statement.setObject(i + 1, instant.atOffset(ZoneOffset.UTC));
            } else {
                statement.setObject(i + 1, value);
            }
        }
        return statement;
    }

    private static CryoException failure(String sql, SQLException e) {
        String statement = sql.strip().split("\\s+", 3).length > 1 ? sql.strip().split("\\s+")[0] : sql;
        return new CryoException(GovernorErrorCode.STORE_UNAVAILABLE, "Cannot run " + statement
                + " on the governor's database: " + e.getMessage() + " (SQL state " + e.getSQLState() + ")", e);
    }
}
