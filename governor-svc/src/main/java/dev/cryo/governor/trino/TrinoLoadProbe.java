package dev.cryo.governor.trino;

import dev.cryo.governor.domain.EngineLoadProbe;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;

import static java.util.Objects.requireNonNull;

/**
 * Reads Trino's load from {@code system.runtime.queries}: the queries that run or wait and that
 * Cryo did not send. Cryo's own queries (its Trino engine and this probe) run as the Cryo user,
 * so they are not counted: maintenance must not defer itself.
 */
final class TrinoLoadProbe implements EngineLoadProbe {

    /** Queries that hold or wait for Trino's resources; FINISHED and FAILED ones are history. */
    static final String FOREIGN_QUERIES = "SELECT count(*) FROM system.runtime.queries "
            + "WHERE state NOT IN ('FINISHED', 'FAILED') AND \"user\" <> ?";

    private final String jdbcUrl;
    private final String user;
    private final Optional<String> password;
    private final Duration timeout;

    TrinoLoadProbe(String jdbcUrl, String user, Optional<String> password, Duration timeout) {
        this.jdbcUrl = requireNonNull(jdbcUrl, "jdbcUrl is null");
        this.user = requireNonNull(user, "user is null");
        this.password = requireNonNull(password, "password is null");
        this.timeout = requireNonNull(timeout, "timeout is null");
    }

    @Override
    public int foreignQueries() {
        Properties properties = new Properties();
        properties.setProperty("user", user);
        properties.setProperty("source", "cryo-governor");
        password.ifPresent(secret -> properties.setProperty("password", secret));
        // The driver's own timeouts: a Trino that does not answer must not hold a decision for long.
        properties.setProperty("timeout", timeout.toSeconds() + "s");
        try (Connection connection = DriverManager.getConnection(jdbcUrl, properties);
             PreparedStatement statement = connection.prepareStatement(FOREIGN_QUERIES)) {
            statement.setQueryTimeout((int) Math.max(1, timeout.toSeconds()));
            statement.setString(1, user);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                int foreign = rows.getInt(1);
                // Read to the end: Trino's driver cancels a query whose result is closed unfinished, and
                // Trino's operators would see every probe as a USER_CANCELED failure in their query history.
                while (rows.next()) {
                    // one row only
                }
                return foreign;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Trino at " + jdbcUrl + " did not answer " + "system.runtime.queries: "
                    + e.getMessage() + " (check cryo.governor.trino.jdbc-url and that Trino runs)", e);
        }
    }
}
