package dev.cryo.executor;

import dev.cryo.contracts.Topics;
import dev.cryo.iceberg.fixtures.LocalCatalogs;
import dev.cryo.testsupport.Infrastructure;
import dev.cryo.testsupport.KafkaTestClient;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A test catalog for the executor: a JDBC catalog on the real PostgreSQL (schema
 * {@code executor_test_catalog}) with a warehouse in a temporary folder, configured the way an
 * operator would, as {@code cryo.catalogs.exectest.*}. Also makes sure Cryo's topics exist.
 */
public class WarehouseResource implements QuarkusTestResourceLifecycleManager {

    public static final String CATALOG = "exectest";
    public static final String CATALOG_SCHEMA = "executor_test_catalog";

    private Path warehouse;

    @Override
    public Map<String, String> start() {
        Infrastructure.requireKafkaAndPostgresql();
        Topics.all().forEach(spec -> KafkaTestClient.createTopics(spec.partitions(), spec.name()));
        try {
            warehouse = Files.createTempDirectory("cryo-executor-warehouse");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> properties = new HashMap<>();
        catalogProperties(warehouse).forEach((key, value) -> properties.put("cryo.catalogs." + CATALOG + "." + key, value));
        return properties;
    }

    /** The catalog's Iceberg properties, without empty values (configuration drops them anyway). */
    public static Map<String, String> catalogProperties(Path warehouse) {
        Map<String, String> properties = new HashMap<>();
        LocalCatalogs.jdbc(Infrastructure.jdbcUrl(), Infrastructure.dbUser(), Infrastructure.dbPassword(), CATALOG_SCHEMA,
                warehouse).forEach((key, value) -> {
                    if (!value.isEmpty()) {
                        properties.put(key, value);
                    }
                });
        // Streaming writers leave hundreds of small manifests; rebasing a rewrite plans them again and again.
        properties.put("io.manifest.cache-enabled", "true");
        return properties;
    }

    @Override
    public void stop() {
        if (warehouse == null) {
            return;
        }
        try (Stream<Path> files = Files.walk(warehouse)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
