package dev.cryo.scanner.watch;

import dev.cryo.iceberg.catalog.CatalogRegistry;

import java.util.Map;

/** Picks the cheapest pointer source a catalog supports. */
public final class PointerSources {

    public static PointerSource forCatalog(String catalog, Map<String, String> properties, CatalogRegistry registry) {
        boolean jdbc = "jdbc".equals(properties.get("type"))
                || "org.apache.iceberg.jdbc.JdbcCatalog".equals(properties.get("catalog-impl"));
        return jdbc ? new JdbcCatalogPointers(catalog, properties) : new LoadingPointers(catalog, registry);
    }

    private PointerSources() {
    }
}
