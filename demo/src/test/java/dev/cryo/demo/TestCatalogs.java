package dev.cryo.demo;

import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.iceberg.fixtures.LocalCatalogs;
import dev.cryo.testsupport.Infrastructure;

import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;

/** A JDBC catalog in the real PostgreSQL (database {@code cryo_demo_test}) over a temporary warehouse. */
public final class TestCatalogs {

    public static final String DATABASE = "cryo_demo_test";
    public static final String CATALOG = "demotest";

    public static CatalogRegistry create(Path warehouse) {
        return CatalogRegistry.create(Map.of(CATALOG, properties(warehouse)));
    }

    public static Map<String, String> properties(Path warehouse) {
        // creates the database when it is missing
        Map<String, String> local = LocalCatalogs.jdbc(Infrastructure.jdbcUrl(), Infrastructure.dbUser(),
                Infrastructure.dbPassword(), DATABASE, warehouse);
        return CatalogOptions.jdbcCatalog(local.get("uri"), Infrastructure.dbUser(), Infrastructure.dbPassword(), warehouse);
    }

    /** A namespace no earlier run used: tests never see each other's tables. */
    public static String uniqueNamespace(String prefix) {
        return prefix + "_" + UUID.randomUUID().toString().substring(0, 8);
    }

    private TestCatalogs() {
    }
}
