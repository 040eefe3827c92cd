package dev.cryo.planner.persistence;

import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.json.EventJson;
import dev.cryo.platform.error.CommonErrorCode;
import dev.cryo.platform.error.CryoException;
import io.agroal.api.AgroalDataSource;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * The JDBC plumbing of the planner's stores: one connection per call (the caller's transaction's,
 * when there is one), database errors as a {@link CryoException} that names the action, events as
 * their JSON.
 */
final class Jdbc {

    /** Work on one connection. */
    interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    private final AgroalDataSource dataSource;

    Jdbc(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    <T> T query(String action, Work<T> work) {
        try (Connection connection = dataSource.getConnection()) {
            return work.run(connection);
        } catch (SQLException e) {
            throw new CryoException(CommonErrorCode.DEPENDENCY_UNAVAILABLE,
                    "Cannot " + action + ": the database answered " + e.getMessage(), e);
        }
    }

    int update(String action, String sql, Object... parameters) {
        return query(action, connection -> {
            try (PreparedStatement statement = connection.prepareStatement(sql)) {
                bind(statement, parameters);
                return statement.executeUpdate();
            }
        });
    }

    static void bind(PreparedStatement statement, Object... parameters) throws SQLException {
        for (int i = 0; i < parameters.length; i++) {
            statement.setObject(i + 1, parameters[i]);
        }
    }

    static String json(CryoEvent event) {
        return new String(EventJson.write(event), StandardCharsets.UTF_8);
    }

    static <T extends CryoEvent> T read(String json, Class<T> type) {
        return EventJson.read(json.getBytes(StandardCharsets.UTF_8), type);
    }
}
