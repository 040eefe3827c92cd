package dev.cryo.enginesql.engines;

import dev.cryo.contracts.Engine;
import dev.cryo.enginesql.CatalogNames;
import dev.cryo.enginesql.EngineClient;
import dev.cryo.enginesql.SqlRenderer;
import dev.cryo.enginesql.spark.SparkConnectClient;
import dev.cryo.enginesql.spark.SparkRenderer;
import dev.cryo.enginesql.spark.SparkSettings;
import dev.cryo.enginesql.trino.TrinoClient;
import dev.cryo.enginesql.trino.TrinoRenderer;
import dev.cryo.enginesql.trino.TrinoSettings;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.iceberg.fixtures.LocalCatalogs;
import dev.cryo.testsupport.Infrastructure;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * The real Trino 476 and Spark 4.0.1 Connect servers that {@code ./cryo infra up --with trino
 * --with spark} starts, the shared local catalog {@code lakehouse} they both use, and one client of
 * each for the whole test run (one long-lived Spark Connect session, as the executor will hold).
 */
final class RealEngines {

    static final String CATALOG = "lakehouse";
    static final String TRINO_URL = Infrastructure.trinoJdbcUrl();
    static final String SPARK_REMOTE = Infrastructure.sparkRemote();
    static final Path WAREHOUSE = Infrastructure.localWarehouse();

    private static CatalogRegistry registry;
    private static TrinoClient trino;
    private static SparkConnectClient spark;

    static void requireRunning() {
        Infrastructure.requireEngines();
    }

    static synchronized Catalog catalog() {
        if (registry == null) {
            registry = CatalogRegistry.create(Map.of(CATALOG, LocalCatalogs.jdbc(Infrastructure.jdbcUrl(),
                    Infrastructure.catalogUser(), "", "cryo_catalog", WAREHOUSE)));
        }
        return registry.catalog(CATALOG);
    }

    static synchronized EngineClient client(Engine engine) {
        return switch (engine) {
            case TRINO -> {
                if (trino == null) {
                    trino = new TrinoClient(new TrinoClient.Settings(TRINO_URL, "cryo", "cryo", null, Duration.ofMinutes(5)));
                }
                yield trino;
            }
            case SPARK -> {
                if (spark == null) {
                    spark = new SparkConnectClient(new SparkConnectClient.Settings(SPARK_REMOTE, "cryo", Duration.ofMinutes(5)));
                }
                yield spark;
            }
            case NATIVE -> throw new IllegalArgumentException("the native engine runs in the executor, not here");
        };
    }

    static SqlRenderer renderer(Engine engine) {
        return switch (engine) {
            case TRINO -> new TrinoRenderer(TrinoSettings.DEFAULT);
            case SPARK -> new SparkRenderer(SparkSettings.systemClock(CatalogNames.SAME));
            case NATIVE -> throw new IllegalArgumentException("the native engine renders no SQL");
        };
    }

    static void createNamespace(String namespace) {
        ((SupportsNamespaces) catalog()).createNamespace(Namespace.of(namespace));
    }

    /** Drops every table of the namespace with its files, then the namespace. */
    static void dropNamespace(String namespace) {
        Catalog catalog = catalog();
        for (TableIdentifier table : catalog.listTables(Namespace.of(namespace))) {
            catalog.dropTable(table, true);
        }
        ((SupportsNamespaces) catalog).dropNamespace(Namespace.of(namespace));
    }

    static void closeQuietly() {
        try {
            if (registry != null) {
                registry.close();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private RealEngines() {
    }
}
