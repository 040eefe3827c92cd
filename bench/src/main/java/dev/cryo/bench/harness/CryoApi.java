package dev.cryo.bench.harness;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cryo.contracts.TableId;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/** The services' REST APIs, as an operator uses them (their READMEs). */
public final class CryoApi {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Environment environment;
    /** Patterns this run gave a policy and has not yet handed back: what Cryo maintains for the run. */
    private final Set<String> maintained = ConcurrentHashMap.newKeySet();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public CryoApi(Environment environment) {
        this.environment = environment;
    }

    /** Pauses every table matching the pattern in the governor; returns the pause id. */
    public String pause(String pattern, String reason) {
        ObjectNode body = JSON.createObjectNode().put("pattern", pattern).put("reason", reason);
        JsonNode answer = send("governor", "POST", "/api/v1/pauses", body.toString(), 201);
        return answer.path("id").asText();
    }

    public void resume(String pauseId) {
        send("governor", "DELETE", "/api/v1/pauses/" + pauseId, null, 204);
    }

    /** A governor policy on a pattern (the bench sets only the cooldown). */
    public void policy(String pattern, Duration cooldown) {
        ObjectNode body = JSON.createObjectNode().put("cooldown", cooldown.toString());
        send("governor", "PUT", "/api/v1/policies/" + pattern, body.toString(), 200);
        maintained.add(pattern);
    }

    /** A governor policy on a pattern with the engine its jobs run on (scenario 4: Trino). */
    public void policy(String pattern, Duration cooldown, String engine) {
        ObjectNode body = JSON.createObjectNode().put("cooldown", cooldown.toString()).put("engine", engine);
        send("governor", "PUT", "/api/v1/policies/" + pattern, body.toString(), 200);
        maintained.add(pattern);
    }

    public void deletePolicy(String pattern) {
        send("governor", "DELETE", "/api/v1/policies/" + pattern, null, 204);
        maintained.remove(pattern);
    }

    /**
     * For a run that stops before its scenarios handed their namespaces back (an error, a kill): pauses every pattern
     * it still has a policy on, so that Cryo does not go on rewriting tables nobody measures and take the engine's
     * slots from the next run's jobs (a job already running finishes). Returns the patterns paused.
     */
    public Set<String> pauseAbandoned() {
        Set<String> paused = new TreeSet<>();
        for (String pattern : Set.copyOf(maintained)) {
            try {
                pause(pattern, "CryoBench: the run stopped before it finished with these tables");
                deletePolicy(pattern);
                paused.add(pattern);
            } catch (RuntimeException e) {
                System.err.println("warning: cannot pause " + pattern + " after the run stopped: " + e.getMessage()
                        + "; pause it with ./cryo pause " + pattern);
            }
        }
        return paused;
    }

    /**
     * Sweep now: the scanner asks for a scan of every table of a namespace of the bench's catalog, as
     * its scheduled sweep would; returns how many tables it asked a scan of.
     */
    public int sweep(String namespace) {
        ObjectNode body = JSON.createObjectNode().put("catalog", environment.catalogName()).put("namespace", namespace);
        return send("scanner", "POST", "/api/v1/sweeps", body.toString(), 202).path("tables").asInt();
    }

    /** Fix now: the scanner scans the table. */
    public void scan(TableId table) {
        ObjectNode body = JSON.createObjectNode().put("table", table.toString());
        send("scanner", "POST", "/api/v1/scans", body.toString(), 202);
    }

    /** The webhook: a table changed. Returns the HTTP status (2xx, or 5xx when the scanner is overloaded); throws on a 4xx. */
    public int notify(TableId table, long snapshotId) {
        ObjectNode body = JSON.createObjectNode().put("catalog", table.catalog()).put("namespace", table.namespaceName())
                .put("table", table.table()).put("snapshotId", snapshotId);
        HttpResponse<String> response = request("scanner", "POST", "/api/v1/notifications", body.toString());
        if (response.statusCode() / 100 == 4) {
            // a refused notification is the harness's mistake, not a measurement
            throw new IllegalStateException("Cannot notify the scanner of " + table + ": HTTP " + response.statusCode()
                    + " " + response.body());
        }
        return response.statusCode();
    }

    /** The scorer's latest grade of every table of a namespace: table id → (grade, snapshot id). */
    public Map<String, Graded> grades(String namespace) {
        Map<String, Graded> grades = new HashMap<>();
        int offset = 0;
        while (true) {
            JsonNode page = send("scorer", "GET", "/api/v1/tables?catalog=" + encode(environment.catalogName())
                    + "&namespace=" + encode(namespace) + "&limit=1000&offset=" + offset, null, 200);
            JsonNode tables = page.path("tables");
            for (JsonNode table : tables) {
                grades.put(table.path("table").asText(), new Graded(table.path("grade").asText(),
                        table.path("snapshotId").isNull() ? null : table.path("snapshotId").asLong(),
                        table.path("score").asInt()));
            }
            offset += tables.size();
            if (tables.isEmpty() || offset >= page.path("total").asInt()) {
                return grades;
            }
        }
    }

    /** The governor's queue (admitted, running, deferred) as text, to look for a namespace in it. */
    public String queue() {
        return send("governor", "GET", "/api/v1/queue", null, 200).toString();
    }

    public record Graded(String grade, Long snapshotId, int score) {
    }

    private JsonNode send(String service, String method, String path, String body, int expected) {
        HttpResponse<String> response = request(service, method, path, body);
        if (response.statusCode() != expected && !(expected == 200 && response.statusCode() == 204)
                && !(expected == 202 && response.statusCode() == 200) && !(expected == 201 && response.statusCode() == 200)) {
            throw new IllegalStateException("Cannot " + method + " " + service + path + ": HTTP " + response.statusCode()
                    + " " + response.body());
        }
        try {
            return response.body() == null || response.body().isBlank() ? JSON.createObjectNode()
                    : JSON.readTree(response.body());
        } catch (IOException e) {
            throw new IllegalStateException("Cannot read the answer of " + service + path + ": " + e.getMessage(), e);
        }
    }

    private HttpResponse<String> request(String service, String method, String path, String body) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(environment.url(service) + path))
                .timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer " + environment.operatorToken());
        if (body != null) {
            builder.header("Content-Type", "application/json");
        }
        builder.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        try {
            return http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException("Cannot reach " + service + " at " + environment.url(service) + ": "
                    + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while calling " + service, e);
        }
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
