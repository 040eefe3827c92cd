package dev.cryo.enginesql;

import java.util.Map;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/**
 * How an engine names Cryo's catalogs: Cryo's {@code lakehouse} may be Trino's {@code iceberg}.
 * A catalog without an entry has the same name in the engine.
 *
 * @param engineCatalogs engine catalog name by Cryo catalog name
 */
public record CatalogNames(Map<String, String> engineCatalogs) {

    public static final CatalogNames SAME = new CatalogNames(Map.of());

    public CatalogNames {
        engineCatalogs = Map.copyOf(new TreeMap<>(requireNonNull(engineCatalogs, "engineCatalogs is null")));
    }

    public String engineCatalog(String cryoCatalog) {
        requireNonNull(cryoCatalog, "cryoCatalog is null");
        return engineCatalogs.getOrDefault(cryoCatalog, cryoCatalog);
    }
}
