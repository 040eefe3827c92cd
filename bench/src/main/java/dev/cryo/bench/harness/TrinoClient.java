package dev.cryo.bench.harness;

import dev.cryo.bench.domain.QuerySample;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

import static java.util.Objects.requireNonNull;

/**
 * A Trino JDBC connection to the local catalog, as a dashboard or an engineer's SQL client opens it:
 * user {@code cryo-bench} (a user the governor counts as load, unlike Cryo's own {@code cryo}), the
 * port of the caller's environment ({@code CRYO_TRINO_PORT}, as ./cryo infra up).
 */
public final class TrinoClient implements AutoCloseable {

    /** The user the harness's queries run as. */
    public static final String USER = "cryo-bench";

    private final Connection connection;

    private TrinoClient(Connection connection) {
        this.connection = connection;
    }

    /** Opens a connection to the catalog and warms it with {@code SELECT 1}. */
    public static TrinoClient open(String catalog) throws SQLException {
        requireNonNull(catalog, "catalog is null");
        String port = System.getenv().getOrDefault("CRYO_TRINO_PORT", "8080");
        Properties properties = new Properties();
        properties.setProperty("user", USER);
        Connection connection = DriverManager.getConnection("jdbc:trino://127.0.0.1:" + port + "/" + catalog, properties);
        TrinoClient client = new TrinoClient(connection);
        try {
            client.readAll("SELECT 1");
        } catch (SQLException e) {
            connection.close();
            throw e;
        }
        return client;
    }

    /** Runs a query and reads every row; returns the number of rows. */
    public long readAll(String sql) throws SQLException {
        long rows = 0;
        try (Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(sql)) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                for (int column = 1; column <= columns; column++) {
                    result.getObject(column);
                }
                rows++;
            }
        }
        return rows;
    }

    /** Runs a statement (ALTER TABLE … EXECUTE …) to its end. */
    public void execute(String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    /** Runs one named query to its last row and records when it ran; a failure is recorded, not thrown. */
    public QuerySample timed(String name, String sql) {
        long start = System.currentTimeMillis();
        try {
            readAll(sql);
            return new QuerySample(name, start, System.currentTimeMillis(), null);
        } catch (SQLException e) {
            return new QuerySample(name, start, System.currentTimeMillis(),
                    e.getMessage() == null ? e.getClass().getName() : e.getMessage());
        }
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
