package dev.cryo.scanner.watch;

import dev.cryo.contracts.TableId;
import io.quarkus.logging.Log;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * The pointers of an Iceberg JDBC catalog in one query over its {@code iceberg_tables} table:
 * one round trip per poll, whatever the number of tables.
 */
final class JdbcCatalogPointers implements PointerSource {

    private final String catalog;
    private final String uri;
    private final Properties connectionProperties = new Properties();
    private final Set<String> unnameable = new HashSet<>();

    JdbcCatalogPointers(String catalog, Map<String, String> catalogProperties) {
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.uri = requireNonNull(catalogProperties.get("uri"), "Cannot watch catalog " + catalog + ": its 'uri' is not set");
        catalogProperties.forEach((key, value) -> {
            if (key.startsWith("jdbc.") && !key.equals("jdbc.schema-version") && !key.equals("jdbc.init-catalog-tables")) {
                connectionProperties.setProperty(key.substring("jdbc.".length()), value);
            }
        });
    }

    /**
     * The table's id, or nothing (and a warning, once) when {@link TableId} refuses its name, so
     * that one table Cryo cannot name hides none of the catalog's others.
     */
    private Optional<TableId> nameable(String namespace, String table) {
        try {
            return Optional.of(new TableId(catalog, Arrays.asList(namespace.split("\\.")), table));
        } catch (IllegalArgumentException e) {
            if (unnameable.add(namespace + "." + table)) {
                Log.warnf("Cryo leaves table %s.%s of catalog %s alone: %s", namespace, table, catalog, e.getMessage());
            }
            return Optional.empty();
        }
    }

    @Override
    public Map<TableId, String> pointers() {
        Map<TableId, String> pointers = new HashMap<>();
        try (Connection connection = DriverManager.getConnection(uri, connectionProperties)) {
            // V1 catalogs also hold views (iceberg_type = 'VIEW'); V0 catalogs have no such column
            boolean hasType = hasTypeColumn(connection);
            String sql = "SELECT table_namespace, table_name, metadata_location FROM iceberg_tables WHERE catalog_name = ?"
                    + (hasType ? " AND (iceberg_type IS NULL OR iceberg_type = 'TABLE')" : "");
            try (PreparedStatement select = connection.prepareStatement(sql)) {
                select.setString(1, catalog);
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        String location = rows.getString(3);
                        if (location != null) {
                            nameable(rows.getString(1), rows.getString(2)).ifPresent(table -> pointers.put(table, location));
                        }
                    }
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot read the pointers of catalog " + catalog + ": " + e.getMessage(), e);
        }
        return pointers;
    }

    private static boolean hasTypeColumn(Connection connection) throws SQLException {
        try (ResultSet columns = connection.getMetaData().getColumns(null, null, "iceberg_tables", "iceberg_type")) {
            return columns.next();
        }
    }

    @Override
    public String method() {
        return "one query over iceberg_tables";
    }
}
