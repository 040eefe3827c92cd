package dev.cryo.scanner.app;

import dev.cryo.iceberg.fixtures.LocalCatalogs;
import dev.cryo.testsupport.Infrastructure;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * A JDBC catalog of its own for one test run: a fresh PostgreSQL schema and a temporary
 * warehouse, configured as {@code cryo.catalogs.scannerit.*} exactly as an operator would.
 */
public class TestCatalogResource implements QuarkusTestResourceLifecycleManager {

    public static final String CATALOG = "scannerit";

    static Path warehouse;
    static String schema;
    static Map<String, String> catalogProperties;

    @Override
    public Map<String, String> start() {
        try {
            warehouse = Files.createTempDirectory("scanner-it-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        schema = "scanner_it_" + UUID.randomUUID().toString().substring(0, 8);
        catalogProperties = LocalCatalogs.jdbc(Infrastructure.jdbcUrl(), Infrastructure.dbUser(),
                Infrastructure.dbPassword(), schema, warehouse);
        Map<String, String> config = new HashMap<>();
        catalogProperties.forEach((key, value) -> {
            if (!value.isEmpty()) {
                config.put("cryo.catalogs." + CATALOG + "." + key, value);
            }
        });
        return config;
    }

    @Override
    public void stop() {
        try (Connection connection = DriverManager.getConnection(Infrastructure.jdbcUrl(), Infrastructure.dbUser(),
                Infrastructure.dbPassword()); Statement statement = connection.createStatement()) {
            statement.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot drop test catalog schema " + schema + ": " + e.getMessage(), e);
        }
        try (Stream<Path> files = Files.walk(warehouse)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
