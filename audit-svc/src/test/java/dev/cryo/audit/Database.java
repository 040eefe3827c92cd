package dev.cryo.audit;

import dev.cryo.testsupport.Infrastructure;
import org.eclipse.microprofile.config.ConfigProvider;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Direct connections for tests: as the database owner (the local superuser, who migrated the
 * schema) and as the service's own writer role.
 */
public final class Database {

    public static final String SCHEMA = "audit_test";

    public static Connection owner() throws SQLException {
        return DriverManager.getConnection(Infrastructure.jdbcUrl(), Infrastructure.dbUser(), Infrastructure.dbPassword());
    }

    /** Logs in with exactly the credentials the service uses. */
    public static Connection writer() throws SQLException {
        String user = ConfigProvider.getConfig().getValue("quarkus.datasource.username", String.class);
        String password = ConfigProvider.getConfig().getOptionalValue("quarkus.datasource.password", String.class).orElse("");
        return DriverManager.getConnection(Infrastructure.jdbcUrl(), user, password);
    }

    public static long count(String sql, Object... parameters) {
        try (Connection connection = owner(); PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            try (ResultSet result = statement.executeQuery()) {
                result.next();
                return result.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot count with " + sql + ": " + e.getMessage(), e);
        }
    }

    /** {@code SELECT key, count(*) ... GROUP BY key} as a map. */
    public static Map<String, Long> counts(String sql, Object... parameters) {
        try (Connection connection = owner(); PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            Map<String, Long> counts = new LinkedHashMap<>();
            try (ResultSet result = statement.executeQuery()) {
                while (result.next()) {
                    counts.put(result.getString(1), result.getLong(2));
                }
            }
            return counts;
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot count with " + sql + ": " + e.getMessage(), e);
        }
    }

    /**
     * Rows per event type among the given CloudEvents ids. Tests count by the ids they sent: other
     * services react to the shared topics (a running governor defers a test's plans), and those
     * reactions are rightly in the log too, under the same tables.
     */
    public static Map<String, Long> countsByType(String schema, Collection<String> eventIds) {
        try (Connection connection = owner(); PreparedStatement statement = connection.prepareStatement(
                "SELECT event_type, count(*) FROM " + schema + ".audit_event WHERE event_id = ANY (?) GROUP BY 1 ORDER BY 1")) {
            statement.setArray(1, connection.createArrayOf("text", eventIds.toArray()));
            Map<String, Long> counts = new TreeMap<>();
            try (ResultSet result = statement.executeQuery()) {
                while (result.next()) {
                    counts.put(result.getString(1), result.getLong(2));
                }
            }
            return counts;
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot count events by type: " + e.getMessage(), e);
        }
    }

    /** Rows among the given CloudEvents ids. */
    public static long countOf(String schema, Collection<String> eventIds) {
        return countsByType(schema, eventIds).values().stream().mapToLong(Long::longValue).sum();
    }

    public static void execute(String sql) {
        try (Connection connection = owner(); var statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot run " + sql + ": " + e.getMessage(), e);
        }
    }

    private Database() {
    }
}
