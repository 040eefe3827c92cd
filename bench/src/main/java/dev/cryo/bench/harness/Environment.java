package dev.cryo.bench.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Where the running Cryo is: the same environment variables and defaults as ./cryo
 * (infra/lib/*.sh), so the harness talks to the infrastructure and services that the caller's
 * environment names.
 *
 * @param runtime the runtime directory (CRYO_RUNTIME_DIR, else .cryo-runtime)
 * @param kafkaBootstrap Kafka bootstrap servers
 * @param catalogJdbcUrl JDBC URL of the local Iceberg catalog's database
 * @param catalogUser its user
 * @param warehouse the local catalog's warehouse directory
 * @param catalogName the catalog name in Cryo's table ids
 * @param serviceUrls base URL of each service
 * @param operatorToken the operator API token of this runtime
 */
public record Environment(Path runtime, String kafkaBootstrap, String catalogJdbcUrl, String catalogUser,
                          Path warehouse, String catalogName, Map<String, String> serviceUrls, String operatorToken) {

    public static final List<String> SERVICES = List.of("scanner", "scorer", "planner", "governor", "executor", "audit");

    public Environment {
        requireNonNull(runtime, "runtime is null");
        requireNonNull(kafkaBootstrap, "kafkaBootstrap is null");
        requireNonNull(catalogJdbcUrl, "catalogJdbcUrl is null");
        requireNonNull(catalogUser, "catalogUser is null");
        requireNonNull(warehouse, "warehouse is null");
        requireNonNull(catalogName, "catalogName is null");
        serviceUrls = Map.copyOf(requireNonNull(serviceUrls, "serviceUrls is null"));
        requireNonNull(operatorToken, "operatorToken is null");
    }

    /** From the process environment, with ./cryo's defaults. */
    public static Environment fromSystem(Path cryoHome) {
        Map<String, String> env = System.getenv();
        Path runtime = Path.of(env.getOrDefault("CRYO_RUNTIME_DIR", cryoHome.resolve(".cryo-runtime").toString()));
        String kafka = env.getOrDefault("KAFKA_BOOTSTRAP_SERVERS",
                "127.0.0.1:" + env.getOrDefault("CRYO_KAFKA_PORT", "9092"));
        String pgPort = env.getOrDefault("CRYO_PG_PORT", "15432");
        String catalogDatabase = env.getOrDefault("CRYO_LOCAL_CATALOG_DATABASE", "cryo_catalog");
        Map<String, String> urls = new java.util.LinkedHashMap<>();
        int[] defaults = {8181, 8182, 8183, 8184, 8185, 8186};
        for (int i = 0; i < SERVICES.size(); i++) {
            String service = SERVICES.get(i);
            String port = env.getOrDefault("CRYO_" + service.toUpperCase(java.util.Locale.ROOT) + "_PORT",
                    String.valueOf(defaults[i]));
            urls.put(service, "http://127.0.0.1:" + port);
        }
        return new Environment(runtime, kafka, "jdbc:postgresql://127.0.0.1:" + pgPort + "/" + catalogDatabase,
                env.getOrDefault("CRYO_LOCAL_CATALOG_USER", "cryo_catalog"), runtime.resolve("warehouse"),
                env.getOrDefault("CRYO_LOCAL_CATALOG", "lakehouse"), urls, token(runtime));
    }

    public String url(String service) {
        String url = serviceUrls.get(service);
        if (url == null) {
            throw new IllegalArgumentException("Cannot address service " + service + ": known are " + serviceUrls.keySet());
        }
        return url;
    }

    /** The pid of a service that ./cryo started, if it runs. */
    public Optional<Long> servicePid(String service) {
        return livePid(runtime.resolve("services").resolve(service).resolve(service + ".pid"));
    }

    /** The pid that ./cryo infra up wrote for an engine's server (trino, spark), if that process runs. */
    public Optional<Long> enginePid(String engine) {
        return livePid(runtime.resolve(engine).resolve(engine + ".pid"));
    }

    private static Optional<Long> livePid(Path pidFile) {
        try {
            if (!Files.exists(pidFile)) {
                return Optional.empty();
            }
            long pid = Long.parseLong(Files.readString(pidFile).trim());
            return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).map(ProcessHandle::pid);
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static String token(Path runtime) {
        Path tokens = runtime.resolve("tokens.env");
        try {
            return Files.readAllLines(tokens).stream().filter(line -> line.startsWith("CRYO_OPERATOR_TOKEN="))
                    .map(line -> line.substring("CRYO_OPERATOR_TOKEN=".length())).findFirst()
                    .orElseThrow(() -> new IllegalStateException("Cannot find CRYO_OPERATOR_TOKEN in " + tokens));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + tokens + ": start Cryo with ./cryo up first", e);
        }
    }
}
