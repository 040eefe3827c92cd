package dev.cryo.demo;

import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The demo catalog: the local JDBC catalog that {@code ./cryo infra up} prepares (PostgreSQL
 * database {@code cryo_catalog}, warehouse on local disk), which Cryo's scanner and executor,
 * Trino and Spark share, or with {@code --catalog-type hive} the local Hive Metastore at
 * {@code --catalog-uri}. The password comes from the environment only.
 */
public class CatalogOptions {

    /** Environment variable holding the catalog database's password (empty for the local trust authentication). */
    public static final String PASSWORD_VARIABLE = "CRYO_CATALOG_PASSWORD";

    @Option(names = "--catalog", defaultValue = "lakehouse", description = "Catalog name in Cryo's table ids (default: ${DEFAULT-VALUE})")
    String name;

    @Option(names = "--catalog-type", defaultValue = "jdbc",
            description = "jdbc, or hive for a Hive Metastore (default: ${DEFAULT-VALUE})")
    String type;

    @Option(names = "--catalog-uri", defaultValue = "jdbc:postgresql://127.0.0.1:15432/cryo_catalog",
            description = "JDBC URL of the catalog database, or thrift:// URI of the Hive Metastore (default: ${DEFAULT-VALUE})")
    String uri;

    @Option(names = "--catalog-user", defaultValue = "cryo_catalog", description = "Catalog database user (default: ${DEFAULT-VALUE})")
    String user;

    @Option(names = "--warehouse", required = true, description = "Warehouse directory of the catalog")
    Path warehouse;

    @Option(names = "--namespace", defaultValue = "demo", description = "Namespace of the demo tables (default: ${DEFAULT-VALUE})")
    String namespace;

    public String name() {
        return name;
    }

    public String namespace() {
        return namespace;
    }

    /** Standard Iceberg catalog properties of this catalog. */
    public Map<String, String> properties() {
        if ("hive".equals(type)) {
            Map<String, String> properties = new HashMap<>(Map.of("type", "hive", "uri", uri,
                    "warehouse", warehouse.toAbsolutePath().toUri().toString()));
            properties.putAll(localDisk());
            return properties;
        }
        if (!"jdbc".equals(type)) {
            throw new IllegalArgumentException("Cannot use catalog type '" + type + "': the demo writes to jdbc or hive catalogs");
        }
        String password = System.getenv(PASSWORD_VARIABLE);
        return jdbcCatalog(uri, user, password == null ? "" : password, warehouse);
    }

    /** Properties of a JDBC catalog whose warehouse is a local folder, as the demo writes it. */
    public static Map<String, String> jdbcCatalog(String uri, String user, String password, Path warehouse) {
        Map<String, String> properties = new HashMap<>();
        properties.put("type", "jdbc");
        properties.put("uri", uri);
        properties.put("jdbc.user", user);
        properties.put("jdbc.password", password);
        properties.put("jdbc.schema-version", "V1");
        properties.put("warehouse", warehouse.toAbsolutePath().toUri().toString());
        properties.putAll(localDisk());
        return properties;
    }

    /** Local disk without a chmod process per file; one file system instance for the whole run. */
    private static Map<String, String> localDisk() {
        return Map.of("hadoop.fs.file.impl", NioLocalFileSystem.class.getName(), "hadoop.fs.file.impl.disable.cache", "false");
    }
}
