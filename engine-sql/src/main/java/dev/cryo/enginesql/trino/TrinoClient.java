package dev.cryo.enginesql.trino;

import dev.cryo.contracts.Engine;
import dev.cryo.enginesql.EngineClient;
import dev.cryo.enginesql.EngineExecutionException;
import dev.cryo.enginesql.ExecutedStatement;
import io.trino.jdbc.TrinoStatement;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

import static java.util.Objects.requireNonNull;

/**
 * Runs statements on Trino over its JDBC driver, as a dedicated user with a source and client
 * tag of its own (so the governor, and Trino's resource groups, tell Cryo's queries from users'),
 * a per-statement timeout (Trino's {@code query_max_run_time}), and cancellation by job.
 */
public final class TrinoClient implements EngineClient {

    /**
     * @param jdbcUrl {@code jdbc:trino://host:port}
     * @param user the Trino user Cryo runs as
     * @param source the source and client tag of every query
     * @param password the password, or null for none (from the environment, never logged)
     * @param queryTimeout the longest one statement may run
     */
    public record Settings(String jdbcUrl, String user, String source, String password, Duration queryTimeout) {
        public Settings {
            requireNonNull(jdbcUrl, "jdbcUrl is null");
            if (!jdbcUrl.startsWith("jdbc:trino://")) {
                throw new IllegalArgumentException("Cannot use Trino JDBC URL '" + jdbcUrl + "': it must start with jdbc:trino://");
            }
            requireNonNull(user, "user is null");
            requireNonNull(source, "source is null");
            requireNonNull(queryTimeout, "queryTimeout is null");
            if (queryTimeout.toSeconds() < 1) {
                throw new IllegalArgumentException("Cannot use a Trino query timeout of " + queryTimeout + ": at least one second");
            }
        }

        @Override
        public String toString() {
            return "Settings[jdbcUrl=" + jdbcUrl + ", user=" + user + ", source=" + source + ", queryTimeout=" + queryTimeout + "]";
        }
    }

    private final Settings settings;
    private final ConcurrentHashMap<String, Statement> running = new ConcurrentHashMap<>();
    private final Set<String> cancelled = ConcurrentHashMap.newKeySet();

    public TrinoClient(Settings settings) {
        this.settings = requireNonNull(settings, "settings is null");
    }

    @Override
    public Engine engine() {
        return Engine.TRINO;
    }

    @Override
    public List<ExecutedStatement> execute(String jobTag, List<String> statements) {
        requireNonNull(jobTag, "jobTag is null");
        List<ExecutedStatement> completed = new ArrayList<>();
        // One connection for the call: a SET SESSION holds for the statements after it.
        try (Connection connection = DriverManager.getConnection(settings.jdbcUrl(), properties())) {
            for (String sql : statements) {
                completed.add(run(connection, jobTag, sql, completed));
            }
            return List.copyOf(completed);
        } catch (SQLException e) {
            throw new EngineExecutionException(Engine.TRINO, EngineExecutionException.Failure.UNREACHABLE, null, completed,
                    "Cannot connect to Trino at " + settings.jdbcUrl() + ": " + e.getMessage(), e);
        } finally {
            cancelled.remove(jobTag);
        }
    }

    private ExecutedStatement run(Connection connection, String jobTag, String sql, List<ExecutedStatement> completed) {
        AtomicReference<String> queryId = new AtomicReference<>();
        long started = System.nanoTime();
        try (Statement statement = connection.createStatement()) {
            statement.setQueryTimeout(Math.toIntExact(settings.queryTimeout().toSeconds()));
            statement.unwrap(TrinoStatement.class).setProgressMonitor(stats -> queryId.set(stats.getQueryId()));
            if (running.putIfAbsent(jobTag, statement) != null) {
                throw new IllegalStateException("Cannot run a second statement of job " + jobTag + " at the same time");
            }
            try {
                if (cancelled.contains(jobTag)) {
                    throw new SQLException("cancelled before it started");
                }
                List<List<String>> rows = new ArrayList<>();
                if (statement.execute(sql)) {
                    try (ResultSet result = statement.getResultSet()) {
                        int columns = result.getMetaData().getColumnCount();
                        while (result.next()) {
                            List<String> row = new ArrayList<>(columns);
                            for (int i = 1; i <= columns; i++) {
                                row.add(result.getString(i));
                            }
                            rows.add(row);
                        }
                    }
                }
                return new ExecutedStatement(sql, queryId.get() == null ? "" : queryId.get(), rows,
                        Duration.ofNanos(System.nanoTime() - started));
            } finally {
                running.remove(jobTag, statement);
            }
        } catch (SQLException e) {
            EngineExecutionException.Failure failure = cancelled.contains(jobTag) ? EngineExecutionException.Failure.CANCELLED
                    : isTimeout(e) ? EngineExecutionException.Failure.TIMED_OUT : EngineExecutionException.Failure.FAILED;
            throw new EngineExecutionException(Engine.TRINO, failure, queryId.get(), completed,
                    "Cannot run statement on Trino (" + failure.name().toLowerCase(Locale.ROOT).replace('_', ' ')
                            + (queryId.get() == null ? "" : ", query " + queryId.get()) + "): " + e.getMessage(), e);
        }
    }

    private static boolean isTimeout(SQLException e) {
        String message = String.valueOf(e.getMessage());
        return message.contains("EXCEEDED_TIME_LIMIT") || message.contains("exceeded maximum time limit")
                || message.contains("Query exceeded");
    }

    @Override
    public void cancel(String jobTag) {
        requireNonNull(jobTag, "jobTag is null");
        cancelled.add(jobTag);
        Statement statement = running.get(jobTag);
        if (statement != null) {
            try {
                statement.cancel();
            } catch (SQLException e) {
                throw new EngineExecutionException(Engine.TRINO, EngineExecutionException.Failure.FAILED, null, List.of(),
                        "Cannot cancel Trino statement of job " + jobTag + ": " + e.getMessage(), e);
            }
        }
    }

    private Properties properties() {
        Properties properties = new Properties();
        properties.setProperty("user", settings.user());
        properties.setProperty("source", settings.source());
        properties.setProperty("clientTags", settings.source());
        if (settings.password() != null && !settings.password().isEmpty()) {
            properties.setProperty("password", settings.password());
        }
        return properties;
    }

    @Override
    public void close() {
        running.keySet().forEach(this::cancel);
    }
}
