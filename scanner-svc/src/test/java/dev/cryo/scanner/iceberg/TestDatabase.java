package dev.cryo.scanner.iceberg;

import dev.cryo.testsupport.Infrastructure;
import org.postgresql.ds.PGSimpleDataSource;

import javax.sql.DataSource;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/** A fresh PostgreSQL schema with the scanner's tables (its Flyway migration), for tests without Quarkus. */
public final class TestDatabase {

    private TestDatabase() {
    }

    public static DataSource fresh(String schema) {
        PGSimpleDataSource admin = dataSource(null);
        try (Connection connection = admin.getConnection(); Statement statement = connection.createStatement();
             InputStream migration = TestDatabase.class.getResourceAsStream("/db/migration/V1__scanner.sql")) {
            statement.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
            statement.execute("CREATE SCHEMA " + schema);
            statement.execute("SET search_path TO " + schema);
            statement.execute(new String(migration.readAllBytes(), StandardCharsets.UTF_8));
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot create schema " + schema + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return dataSource(schema);
    }

    private static PGSimpleDataSource dataSource(String schema) {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setUrl(Infrastructure.jdbcUrl());
        dataSource.setUser(Infrastructure.dbUser());
        dataSource.setPassword(Infrastructure.dbPassword());
        if (schema != null) {
            dataSource.setCurrentSchema(schema);
        }
        return dataSource;
    }
}
