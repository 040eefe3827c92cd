package dev.cryo.executor.engines;

import dev.cryo.iceberg.fixtures.LocalCatalogs;
import dev.cryo.testsupport.Infrastructure;
import io.quarkus.test.junit.QuarkusTestProfile;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * The executor as an operator would configure it next to the real Trino 476 and Spark 4.0.1
 * Connect servers that {@code ./cryo infra up --with trino --with spark} starts: the shared local
 * catalog {@code lakehouse} (the JDBC catalog in PostgreSQL database {@code cryo_catalog}, warehouse
 * {@code .cryo-runtime/warehouse}), Trino over JDBC and Spark over Spark Connect. Its consumer
 * group is its own and starts at the end of the topic, so it runs only the jobs these tests send.
 */
public class EnginesProfile implements QuarkusTestProfile {

    public static final String CATALOG = "lakehouse";
    public static final String TRINO_URL = Infrastructure.trinoJdbcUrl();
    public static final String SPARK_REMOTE = Infrastructure.sparkRemote();
    public static final Path WAREHOUSE = Infrastructure.localWarehouse();

    @Override
    public Map<String, String> getConfigOverrides() {
        // No reachability check here: Quarkus reads the overrides while it discovers tests, also
        // when -Pengines is off and the tagged test is excluded. EngineJobTest checks in @BeforeAll.
        Map<String, String> config = new HashMap<>();
        catalogProperties().forEach((key, value) -> config.put("cryo.catalogs." + CATALOG + "." + key, value));
        config.put("cryo.executor.trino.jdbc-url", TRINO_URL);
        config.put("cryo.executor.spark.remote", SPARK_REMOTE);
        config.put("mp.messaging.connector.smallrye-kafka.group.id", "cryo-executor-engines-test-" + UUID.randomUUID());
        config.put("mp.messaging.connector.smallrye-kafka.auto.offset.reset", "latest");
        return config;
    }

    /** The Iceberg properties of the shared local catalog, without empty values (configuration drops them). */
    public static Map<String, String> catalogProperties() {
        Map<String, String> properties = new HashMap<>();
        LocalCatalogs.jdbc(Infrastructure.jdbcUrl(), Infrastructure.catalogUser(), "", "cryo_catalog",
                WAREHOUSE).forEach((key, value) -> {
                    if (!value.isEmpty()) {
                        properties.put(key, value);
                    }
                });
        return properties;
    }

    /** Fails at once, saying how to start them, when Trino or Spark Connect is not listening. */
    public static void requireEnginesRunning() {
        Infrastructure.requireEngines();
    }
}
