package dev.cryo.cli.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cryo.cli.api.ApiClient;
import dev.cryo.cli.api.Endpoints;
import dev.cryo.cli.api.Service;
import dev.cryo.testsupport.Infrastructure;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The demo that {@code ./cryo demo} started, as the end-to-end tests reach it: the same
 * environment variables as the script (CRYO_RUNTIME_DIR, CRYO_&lt;SERVICE&gt;_PORT, CRYO_PG_PORT,
 * CRYO_KAFKA_PORT), the repository from the system property {@code cryo.home}.
 */
final class RunningDemo {

    static final String CATALOG = "lakehouse";
    static final String NAMESPACE = "demo";

    final Path home = Path.of(System.getProperty("cryo.home", "..")).toAbsolutePath().normalize();
    final Path runtime = Path.of(env("CRYO_RUNTIME_DIR", home.resolve(".cryo-runtime").toString()));
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
    private final ObjectMapper json = new ObjectMapper();

    /** What one run of ./cryo printed and returned. */
    record Run(int exit, String out, String err) {
    }

    String url(String service) {
        String variable = "CRYO_" + service.toUpperCase(Locale.ROOT);
        String url = System.getenv(variable + "_URL");
        if (url != null && !url.isBlank()) {
            return url;
        }
        int port = switch (service) {
            case "console" -> 8180;
            case "scanner" -> 8181;
            case "scorer" -> 8182;
            case "planner" -> 8183;
            case "governor" -> 8184;
            case "executor" -> 8185;
            case "audit" -> 8186;
            default -> throw new IllegalArgumentException("no service " + service);
        };
        return "http://127.0.0.1:" + env(variable + "_PORT", String.valueOf(port));
    }

    String pgServerUrl() {
        return "jdbc:postgresql://127.0.0.1:" + env("CRYO_PG_PORT", "15432") + "/cryo";
    }

    String catalogJdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + env("CRYO_PG_PORT", "15432") + "/cryo_catalog";
    }

    Path warehouse() {
        return runtime.resolve("warehouse");
    }

    String kafka() {
        return env("KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:" + env("CRYO_KAFKA_PORT", "9092"));
    }

    /** The demo namespace's tables as the catalog lists them (not as Cryo knows them). */
    List<String> demoTables() throws SQLException {
        try (Connection connection = DriverManager.getConnection(catalogJdbcUrl(), Infrastructure.catalogUser(), "");
             PreparedStatement query = connection.prepareStatement(
                     "SELECT table_name FROM iceberg_tables WHERE catalog_name = ? AND table_namespace = ? ORDER BY table_name")) {
            query.setString(1, CATALOG);
            query.setString(2, NAMESPACE);
            List<String> tables = new ArrayList<>();
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    tables.add(CATALOG + "." + NAMESPACE + "." + rows.getString(1));
                }
            }
            return tables;
        }
    }

    JsonNode get(String service, String path) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url(service) + path))
                .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(service + " answered " + response.statusCode() + " to " + path + ": " + response.body());
        }
        return json.readTree(response.body());
    }

    String page(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url("console") + path))
                .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("console answered " + response.statusCode() + " to " + path);
        }
        return response.body();
    }

    /** Runs {@code ./cryo args} as a user would, in the test's environment. */
    Run cryo(Duration timeout, String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(home.resolve("cryo").toString());
        command.addAll(List.of(arguments));
        Path out = Files.createTempFile("cryo-e2e-out", ".txt");
        Path err = Files.createTempFile("cryo-e2e-err", ".txt");
        ProcessBuilder builder = new ProcessBuilder(command).directory(home.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().putAll(Map.of("CRYO_RUNTIME_DIR", runtime.toString()));
        Process process = builder.start();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("./cryo " + String.join(" ", arguments) + " did not finish within " + timeout
                    + "; it printed: " + Files.readString(out) + Files.readString(err));
        }
        Run run = new Run(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
        Files.deleteIfExists(out);
        Files.deleteIfExists(err);
        return run;
    }

    ObjectMapper json() {
        return json;
    }

    /** The command line's own client, pointed at the demo, with the operator token the demo wrote. */
    ApiClient operator() {
        Map<String, String> environment = new HashMap<>();
        environment.put("CRYO_RUNTIME_DIR", runtime.toString());
        String token = System.getenv("CRYO_TOKEN");
        if (token != null) {
            environment.put("CRYO_TOKEN", token);
        }
        for (Service service : Service.values()) {
            environment.put(service.urlVariable(), url(service.name().toLowerCase(Locale.ROOT)));
        }
        return new ApiClient(Endpoints.fromEnvironment(environment));
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
