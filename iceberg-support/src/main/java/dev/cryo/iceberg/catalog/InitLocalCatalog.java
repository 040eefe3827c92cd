package dev.cryo.iceberg.catalog;

import dev.cryo.iceberg.fixtures.LocalCatalogs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Creates the local JDBC catalog's tables in PostgreSQL (Iceberg's JdbcCatalog does so on
 * first use; Trino's does not), so that Cryo, Trino and Spark share one catalog. Used by
 * {@code ./cryo infra up --with trino|spark} and the demo:
 *
 * <pre>InitLocalCatalog &lt;catalog&gt; &lt;jdbc-url&gt; &lt;user&gt; &lt;password&gt; &lt;schema&gt; &lt;warehouse-dir&gt;</pre>
 */
public final class InitLocalCatalog {

    public static void main(String[] args) throws Exception {
        if (args.length != 6) {
            System.err.println("usage: InitLocalCatalog <catalog> <jdbc-url> <user> <password> <database> <warehouse-dir>");
            System.exit(2);
        }
        Path warehouse = Files.createDirectories(Path.of(args[5]));
        Map<String, String> properties = LocalCatalogs.jdbc(args[1], args[2], args[3], args[4], warehouse);
        try (CatalogRegistry registry = CatalogRegistry.create(Map.of(args[0], properties))) {
            System.out.println("catalog " + args[0] + " ready: " + registry.listTables(args[0]).size() + " tables, warehouse " + warehouse);
        }
    }

    private InitLocalCatalog() {
    }
}
