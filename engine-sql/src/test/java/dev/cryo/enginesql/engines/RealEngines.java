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
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The real Trino 476 and Spark 4.0.1 Connect servers that {@code ./cryo infra up --with trino
 * --with spark} starts, the shared local catalog {@code lakehouse} they both use, and one client of
 * each for the whole test run (one long-lived Spark Connect session, as the executor will hold).
 */
final class RealEngines {

    static final String CATALOG = "lakehouse";
    static final String TRINO_URL = System.getProperty("cryo.trino.jdbc-url", "jdbc:trino://127.0.0.1:8080");
    static final String SPARK_REMOTE = System.getProperty("cryo.spark.remote", "sc://127.0.0.1:15002");
    static final Path WAREHOUSE = Path.of(System.getProperty("cryo.warehouse",
            Path.of("..", ".cryo-runtime", "warehouse").toAbsolutePath().normalize().toString()));

    private static CatalogRegistry registry;
    private static TrinoClient trino;
    private static SparkConnectClient spark;

    static synchronized void requireRunning() {
        List<String> down = new ArrayList<>();
        if (!reachable(TRINO_URL.substring("jdbc:trino://".length()))) {
            down.add("Trino at " + TRINO_URL);
        }
        if (!reachable(SPARK_REMOTE.substring("sc://".length()))) {
            down.add("Spark Connect at " + SPARK_REMOTE);
        }
        if (!down.isEmpty()) {
            throw new IllegalStateException("Cannot run the engine tests: " + String.join(" and ", down)
                    + " not reachable. Start them with ./cryo infra up --with trino --with spark");
        }
    }

    static synchronized Catalog catalog() {
        if (registry == null) {
            registry = CatalogRegistry.create(Map.of(CATALOG, LocalCatalogs.jdbc(Infrastructure.jdbcUrl(),
                    Infrastructure.dbUser(), Infrastructure.dbPassword(), "cryo_catalog", WAREHOUSE)));
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

    private static boolean reachable(String hostPort) {
        String[] parts = hostPort.replaceAll("/.*", "").split(":");
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(parts[0], Integer.parseInt(parts[1])), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
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
