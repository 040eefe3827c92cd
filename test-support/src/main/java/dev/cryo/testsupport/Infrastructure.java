package dev.cryo.testsupport;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Where the real infrastructure is: the local one that {@code ./cryo infra up} starts, or the
 * endpoints named by {@code KAFKA_BOOTSTRAP_SERVERS} and {@code CRYO_DB_URL}. A local one moved to
 * other ports with {@code CRYO_KAFKA_PORT} / {@code CRYO_PG_PORT} is found through those, as the
 * services find it (platform's microprofile-config.properties).
 */
public final class Infrastructure {

    /** The command that starts the local infrastructure, quoted in every failure message. */
    public static final String START_COMMAND = "./cryo infra up";

    public static final String DEFAULT_KAFKA = "127.0.0.1:" + env("CRYO_KAFKA_PORT", "9092");
    public static final String DEFAULT_DB_URL = "jdbc:postgresql://127.0.0.1:" + env("CRYO_PG_PORT", "15432") + "/cryo";

    /** HIVE_METASTORE: the standalone Hive Metastore of {@code ./cryo infra up --with hms}. */
    public enum Component { KAFKA, POSTGRESQL, HIVE_METASTORE }

    public static String kafkaBootstrapServers() {
        return env("KAFKA_BOOTSTRAP_SERVERS", DEFAULT_KAFKA);
    }

    /** The broker's administrator, as whom tests produce, read and create topics: CRYO_KAFKA_ADMIN_USER, else cryo-admin. */
    public static String kafkaAdminUser() {
        return env("CRYO_KAFKA_ADMIN_USER", "cryo-admin");
    }

    /**
     * A principal's password on the test broker: CRYO_KAFKA_ADMIN_PASSWORD for the administrator, else
     * the local runtime's {@code kafka/credentials.properties} that {@code ./cryo infra up} writes; empty when
     * neither has it (a broker without authentication).
     */
    public static String kafkaPassword(String principal) {
        if (principal.equals(kafkaAdminUser()) && !env("CRYO_KAFKA_ADMIN_PASSWORD", "").isEmpty()) {
            return env("CRYO_KAFKA_ADMIN_PASSWORD", "");
        }
        Path credentials = runtimeDirectory().resolve("kafka").resolve("credentials.properties");
        if (!Files.isReadable(credentials)) {
            return "";
        }
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(credentials)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + credentials, e);
        }
        return properties.getProperty(principal, "");
    }

    /**
     * The connection settings of a Kafka client of the test broker logged in as {@code principal}
     * (SASL/SCRAM-SHA-512 when its password is known, else none), bootstrap servers included.
     */
    public static Map<String, Object> kafkaClient(String principal) {
        Map<String, Object> settings = kafkaSecurity(principal);
        settings.put("bootstrap.servers", kafkaBootstrapServers());
        return settings;
    }

    /** The security settings alone of {@link #kafkaClient(String)}: for a client that names its own servers. */
    public static Map<String, Object> kafkaSecurity(String principal) {
        Map<String, Object> settings = new HashMap<>();
        String password = kafkaPassword(principal);
        if (!password.isEmpty()) {
            settings.put("security.protocol", env("CRYO_KAFKA_SECURITY_PROTOCOL", "SASL_PLAINTEXT"));
            settings.put("sasl.mechanism", "SCRAM-SHA-512");
            settings.put("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
                    + principal + "\" password=\"" + password + "\";");
        }
        return settings;
    }

    /**
     * The environment of a service process that a test starts (prod profile): its own principal
     * {@code cryo-<service>} and password, or a plaintext connection where the broker has no credentials here.
     */
    public static Map<String, String> kafkaServiceEnvironment(String service) {
        String principal = "cryo-" + service;
        String password = kafkaPassword(principal);
        return password.isEmpty() ? Map.of("CRYO_KAFKA_SECURITY_PROTOCOL", "PLAINTEXT")
                : Map.of("CRYO_KAFKA_USER", principal, "CRYO_KAFKA_PASSWORD", password);
    }

    /** {@link #kafkaClient(String)} of the administrator. */
    public static Map<String, Object> kafkaAdminClient() {
        return kafkaClient(kafkaAdminUser());
    }

    /** {@link #kafkaAdminClient()} with a client's own settings added. */
    public static Map<String, Object> kafkaAdminClient(Map<String, ?> settings) {
        Map<String, Object> all = kafkaAdminClient();
        all.putAll(settings);
        return all;
    }

    /** The local runtime: CRYO_RUNTIME_DIR, else {@code .cryo-runtime} of the checkout (tests run one below it). */
    static Path runtimeDirectory() {
        String runtime = System.getenv("CRYO_RUNTIME_DIR");
        Path base = runtime != null && !runtime.isBlank() ? Path.of(runtime) : Path.of("..", ".cryo-runtime");
        return base.toAbsolutePath().normalize();
    }

    public static String jdbcUrl() {
        return env("CRYO_DB_URL", DEFAULT_DB_URL);
    }

    /** Trino started by {@code ./cryo infra up --with trino}: -Dcryo.trino.jdbc-url, else CRYO_TRINO_PORT. */
    public static String trinoJdbcUrl() {
        return System.getProperty("cryo.trino.jdbc-url", "jdbc:trino://127.0.0.1:" + env("CRYO_TRINO_PORT", "8080"));
    }

    /** Spark Connect started by {@code ./cryo infra up --with spark}: -Dcryo.spark.remote, else CRYO_SPARK_PORT. */
    public static String sparkRemote() {
        return System.getProperty("cryo.spark.remote", "sc://127.0.0.1:" + env("CRYO_SPARK_PORT", "15002"));
    }

    /**
     * The local warehouse that Trino's and Spark's catalog {@code lakehouse} write to: -Dcryo.warehouse,
     * else {@code $CRYO_RUNTIME_DIR/warehouse}, else {@code .cryo-runtime/warehouse} of the checkout
     * (tests run in a module folder, one below it).
     */
    public static Path localWarehouse() {
        String property = System.getProperty("cryo.warehouse");
        if (property != null) {
            return Path.of(property);
        }
        return runtimeDirectory().resolve("warehouse");
    }

    /**
     * The database's administrator (CRYO_DB_ADMIN_USER, locally the bootstrap superuser {@code cryo}):
     * tests use it to look around and to tamper; the services under test log in as their own roles.
     */
    public static String dbUser() {
        return env("CRYO_DB_ADMIN_USER", "cryo");
    }

    public static String dbPassword() {
        return env("CRYO_DB_ADMIN_PASSWORD", "");
    }

    /**
     * The role that opens the local Iceberg catalog (database cryo_catalog) that {@code ./cryo infra up}
     * provisions: whoever first opens it creates the catalog's tables, which then belong to that role.
     */
    public static String catalogUser() {
        return env("CRYO_LOCAL_CATALOG_USER", "cryo_catalog");
    }

    /**
     * The Hive Metastore's Thrift URI: CRYO_HMS_URI, else the local one on CRYO_HMS_PORT (9083) that
     * {@code ./cryo infra up --with hms} (and {@code ./cryo test}) starts.
     */
    public static String hiveMetastoreUri() {
        return env("CRYO_HMS_URI", "thrift://127.0.0.1:" + env("CRYO_HMS_PORT", "9083"));
    }

    /** What every Quarkus test and most others need: Kafka and PostgreSQL (not the Hive Metastore). */
    public static void requireKafkaAndPostgresql() {
        requireReachable(List.of(Component.KAFKA, Component.POSTGRESQL));
    }

    /** Fails with a message naming the start command when a component does not accept connections. */
    public static void requireReachable(List<Component> components) {
        List<String> problems = new ArrayList<>();
        for (Component component : components) {
            String endpoint = switch (component) {
                case KAFKA -> kafkaBootstrapServers().split(",")[0];
                case POSTGRESQL -> postgresHostPort();
                case HIVE_METASTORE -> URI.create(hiveMetastoreUri()).getHost() + ":" + URI.create(hiveMetastoreUri()).getPort();
            };
            if (!reachable(endpoint)) {
                problems.add(component.name().toLowerCase().replace('_', ' ') + " is not reachable at " + endpoint);
            }
        }
        if (!problems.isEmpty()) {
            boolean metastore = components.contains(Component.HIVE_METASTORE);
            throw new IllegalStateException("Cannot run this test: " + String.join("; ", problems)
                    + ". Start the local infrastructure with `" + START_COMMAND + (metastore ? " --with hms" : "")
                    + "`, or point KAFKA_BOOTSTRAP_SERVERS / CRYO_DB_URL" + (metastore ? " / CRYO_HMS_URI" : "")
                    + " at running servers.");
        }
    }

    /**
     * Fails at once, saying how to start them, when Trino or Spark Connect (the engine suites'
     * servers) does not accept connections.
     */
    public static void requireEngines() {
        List<String> down = new ArrayList<>();
        String trino = trinoJdbcUrl().substring("jdbc:trino://".length()).replaceAll("/.*", "");
        if (!reachable(trino)) {
            down.add("Trino at " + trinoJdbcUrl());
        }
        String spark = sparkRemote().substring("sc://".length()).replaceAll("/.*", "");
        if (!reachable(spark)) {
            down.add("Spark Connect at " + sparkRemote());
        }
        if (!down.isEmpty()) {
            throw new IllegalStateException("Cannot run the engine tests: " + String.join(" and ", down)
                    + " not reachable. Start them with ./cryo infra up --with trino --with spark");
        }
    }

    static String postgresHostPort() {
        URI uri = URI.create(jdbcUrl().substring("jdbc:".length()));
        return uri.getHost() + ":" + (uri.getPort() < 0 ? 5432 : uri.getPort());
    }

    static boolean reachable(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        String host = hostPort.substring(0, colon);
        int port = Integer.parseInt(hostPort.substring(colon + 1).trim());
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host.trim(), port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }

    private Infrastructure() {
    }
}
