package dev.cryo.faults;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cryo.iceberg.fixtures.LocalCatalogs;
import dev.cryo.testsupport.Infrastructure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/**
 * The real local stack: Kafka and PostgreSQL of {@code ./cryo infra up} and the six packaged
 * services as processes, started and stopped through {@code fault-tests/stack.sh}, which sources
 * the same {@code infra/lib} functions as {@code ./cryo up}. Processes are killed by the pid in
 * their pid file ({@code $CRYO_RUNTIME_DIR/services/<name>/<name>.pid}), never by name.
 */
final class Stack implements AutoCloseable {

    static final String CATALOG = "lakehouse";
    private static final String CATALOG_DATABASE = "cryo_catalog";

    /**
     * What makes faults show within a test's minutes: a 1 s executor heartbeat and an 8 s
     * takeover, a 90 s governor lease (longer than a service restart on a loaded machine, so a
     * killed executor's job is resumed by its restart rather than re-admitted), a 2 s decision
     * timer, one partition per chunk (a job has a chunk boundary to be killed after), and a 10 s
     * Kafka session so a killed member's partitions move on quickly.
     */
    static final List<String> SERVICE_OPTIONS = List.of(
            "-Dcryo.governor.lease=PT90S",
            "-Dcryo.governor.reevaluation-interval=PT2S",
            "-Dcryo.governor.recheck-interval=PT5S",
            "-Dcryo.executor.heartbeat-interval=PT1S",
            "-Dcryo.executor.lease-timeout=PT8S",
            "-Dcryo.executor.held-job-wait=PT30S",
            "-Dcryo.planner.partitions-per-chunk=1",
            "-Dmp.messaging.connector.smallrye-kafka.session.timeout.ms=10000",
            "-Dmp.messaging.connector.smallrye-kafka.heartbeat.interval.ms=1000");

    private static final Duration SCRIPT_TIMEOUT = Duration.ofMinutes(8);

    private final Path checkout;
    private final Path runtime;
    private final Path log;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final ObjectMapper json = new ObjectMapper();
    private String operatorToken;

    Stack(Path checkout) {
        this.checkout = checkout;
        String runtimeDir = System.getenv("CRYO_RUNTIME_DIR");
        this.runtime = runtimeDir == null || runtimeDir.isBlank() ? checkout.resolve(".cryo-runtime") : Path.of(runtimeDir);
        this.log = checkout.resolve("fault-tests/target/stack.log");
    }

    /** The checkout: -Dcryo.home (set by the profile), else the parent of the module folder the tests run in. */
    static Path checkout() {
        String home = System.getProperty("cryo.home");
        Path path = home == null || home.isBlank() ? Path.of("").toAbsolutePath().getParent() : Path.of(home);
        return path.toAbsolutePath().normalize();
    }

    /** Starts Kafka and PostgreSQL (idempotent), the local catalog's database, and the six services. */
    void up() {
        ServiceJars.requirePackaged(checkout);
        script("infra-up");
        Infrastructure.requireReachable(List.of(Infrastructure.Component.KAFKA, Infrastructure.Component.POSTGRESQL));
        catalogProperties();
        operatorToken = script("token").strip();
        script("up");
    }

    @Override
    public void close() {
        script("down");
    }

    // ------------------------------------------------------------------ processes

    long pid(String service) {
        Path pidFile = runtime.resolve("services").resolve(service).resolve(service + ".pid");
        try {
            return Long.parseLong(Files.readString(pidFile).strip());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the pid of " + service + " from " + pidFile, e);
        }
    }

    /** SIGKILL: no shutdown hook runs, nothing is flushed or acknowledged. */
    void kill(String service) {
        long pid = pid(service);
        ProcessHandle process = ProcessHandle.of(pid).orElseThrow(() ->
                new IllegalStateException("Cannot kill " + service + ": pid " + pid + " does not run"));
        process.destroyForcibly();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> !process.isAlive());
    }

    /** Starts a stopped or killed service and waits until it is ready. */
    void start(String service) {
        script("start", service);
        script("await", service);
    }

    /** Stops the broker (SIGTERM, SIGKILL after 30 s) and starts it again on the same data. */
    void restartKafka() {
        script("kafka-restart");
    }

    /** Stops the broker (SIGTERM, SIGKILL after 30 s). */
    void stopKafka() {
        script("kafka-stop");
    }

    /** Starts the broker again on its data. */
    void startKafka() {
        script("kafka-start");
    }

    /** True when the broker accepts connections. */
    static boolean kafkaReachable() {
        String first = Infrastructure.kafkaBootstrapServers().split(",")[0].trim();
        int colon = first.lastIndexOf(':');
        try (java.net.Socket socket = new java.net.Socket()) {
            socket.connect(new java.net.InetSocketAddress(first.substring(0, colon),
                    Integer.parseInt(first.substring(colon + 1))), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** The services that do not answer ready on /q/health/ready, each with its answer. */
    List<String> servicesNotReady() {
        return servicesNotUp("/q/health/ready");
    }

    /** The services that do not answer live on /q/health/live (a channel failed for good), each with its answer. */
    List<String> servicesNotLive() {
        return servicesNotUp("/q/health/live");
    }

    private List<String> servicesNotUp(String healthPath) {
        List<String> down = new java.util.ArrayList<>();
        for (String service : List.of("scanner", "scorer", "planner", "governor", "executor", "audit")) {
            try {
                HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri(service, healthPath))
                        .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() != 200) {
                    down.add(service + ": " + response.body().replaceAll("\\s+", " "));
                }
            } catch (IOException e) {
                down.add(service + ": " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        return down;
    }

    /** Stops PostgreSQL in fast mode (every connection is cut) and starts it again. */
    void restartPostgres() {
        script("pg-restart");
    }

    private String script(String... arguments) {
        List<String> command = new java.util.ArrayList<>(List.of("bash", checkout.resolve("fault-tests/stack.sh").toString()));
        command.addAll(List.of(arguments));
        try {
            Files.createDirectories(log.getParent());
            Path output = Files.createTempFile(log.getParent(), "stack-", ".out");
            ProcessBuilder builder = new ProcessBuilder(command).directory(checkout.toFile())
                    .redirectErrorStream(true).redirectOutput(output.toFile());
            builder.environment().put("CRYO_FAULTS_SERVICE_OPTIONS", String.join(" ", SERVICE_OPTIONS));
            Instant started = Instant.now();
            Process process = builder.start();
            if (!process.waitFor(SCRIPT_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("Cannot run stack.sh " + String.join(" ", arguments) + ": no end after "
                        + SCRIPT_TIMEOUT + "; see " + log);
            }
            String text = Files.readString(output);
            Files.delete(output);
            // The token command prints a secret: its output stays out of the log.
            String logged = arguments[0].equals("token") ? "" : text;
            Files.writeString(log, "=== " + Instant.now() + " stack.sh " + String.join(" ", arguments) + " ("
                            + Duration.between(started, Instant.now()).toMillis() + " ms, exit " + process.exitValue()
                            + ")\n" + logged, StandardCharsets.UTF_8,
                    java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
            if (process.exitValue() != 0) {
                throw new IllegalStateException("Cannot run stack.sh " + String.join(" ", arguments) + " (exit "
                        + process.exitValue() + "):\n" + text);
            }
            return text;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot run stack.sh " + String.join(" ", arguments), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while running stack.sh " + String.join(" ", arguments), e);
        }
    }

    // ------------------------------------------------------------------ the local catalog

    Path warehouse() {
        return runtime.resolve("warehouse");
    }

    /** The catalog that scanner and executor maintain (infra/lib/catalog.sh), as a writer opens it. */
    Map<String, String> catalogProperties() {
        try {
            Files.createDirectories(warehouse());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new HashMap<>(LocalCatalogs.jdbc(Infrastructure.jdbcUrl(), Infrastructure.catalogUser(),
                "", CATALOG_DATABASE, warehouse()));
    }

    // ------------------------------------------------------------------ REST

    static String port(String service) {
        String value = System.getenv("CRYO_" + service.toUpperCase(Locale.ROOT) + "_PORT");
        if (value != null && !value.isBlank()) {
            return value;
        }
        return switch (service) {
            case "scanner" -> "8181";
            case "scorer" -> "8182";
            case "planner" -> "8183";
            case "governor" -> "8184";
            case "executor" -> "8185";
            case "audit" -> "8186";
            default -> throw new IllegalArgumentException("Cannot find the port of " + service);
        };
    }

    static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    JsonNode get(String service, String path) {
        return send(service, HttpRequest.newBuilder(uri(service, path)).GET(), 200);
    }

    JsonNode post(String service, String path, Object body, int expectedStatus) {
        try {
            return send(service, HttpRequest.newBuilder(uri(service, path))
                    .header("Content-Type", "application/json")
                    .header("Authorization", "Bearer " + operatorToken)
                    .POST(HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(body))), expectedStatus);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    void delete(String service, String path, int expectedStatus) {
        send(service, HttpRequest.newBuilder(uri(service, path)).header("Authorization", "Bearer " + operatorToken)
                .DELETE(), expectedStatus);
    }

    private URI uri(String service, String path) {
        return URI.create("http://127.0.0.1:" + port(service) + path);
    }

    private JsonNode send(String service, HttpRequest.Builder request, int expectedStatus) {
        try {
            HttpResponse<String> response = http.send(request.timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != expectedStatus) {
                throw new IllegalStateException(service + " answered " + response.statusCode() + " to "
                        + response.request().method() + " " + response.uri() + ": " + response.body());
            }
            return response.body().isBlank() ? json.nullNode() : json.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot reach " + service + " at " + response(request), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String response(HttpRequest.Builder request) {
        return request.build().uri().toString();
    }
}
