package dev.cryo.cli.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.cryo.contracts.json.EventJson;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static java.util.Objects.requireNonNull;

/**
 * JSON over HTTP to Cryo's services. Reads send the read token when there is one (needed only
 * where {@code cryo.security.open-reads=false}); changes send the operator token.
 * A service that is down, or answers with an error, becomes a {@link CliException} whose
 * message says which service, where, and what to do.
 */
public final class ApiClient {

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(3);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

    private final Endpoints endpoints;
    private final HttpClient http;
    private final ObjectMapper json = EventJson.mapper();

    public ApiClient(Endpoints endpoints) {
        this.endpoints = requireNonNull(endpoints, "endpoints is null");
        this.http = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).build();
    }

    public Endpoints endpoints() {
        return endpoints;
    }

    public ObjectMapper json() {
        return json;
    }

    public JsonNode get(Service service, String path) {
        return send(service, HttpRequest.newBuilder(uri(service, path)).GET(), endpoints.readToken().orElse(null));
    }

    /** A POST that changes nothing (a preview): a read. */
    public JsonNode postRead(Service service, String path, Object body) {
        return send(service, withBody(uri(service, path), "POST", body), endpoints.readToken().orElse(null));
    }

    public JsonNode postAsOperator(Service service, String path, Object body) {
        return send(service, withBody(uri(service, path), "POST", body), endpoints.requireToken());
    }

    public JsonNode putAsOperator(Service service, String path, Object body) {
        return send(service, withBody(uri(service, path), "PUT", body), endpoints.requireToken());
    }

    public JsonNode deleteAsOperator(Service service, String path) {
        return send(service, HttpRequest.newBuilder(uri(service, path)).DELETE(), endpoints.requireToken());
    }

    /** One path segment, percent-encoded (table ids may hold any printable character). */
    public static String segment(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** One query parameter value, percent-encoded. */
    public static String query(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private URI uri(Service service, String path) {
        return URI.create(endpoints.url(service) + path);
    }

    private HttpRequest.Builder withBody(URI uri, String method, Object body) {
        try {
            String text = body == null ? "" : json.writeValueAsString(body);
            return HttpRequest.newBuilder(uri).header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(text));
        } catch (IOException e) {
            throw new CliException("Cannot write the request body: " + e.getMessage(), e);
        }
    }

    private JsonNode send(Service service, HttpRequest.Builder request, String token) {
        request.timeout(REQUEST_TIMEOUT).header("Accept", "application/json");
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        HttpRequest built = request.build();
        HttpResponse<String> response;
        try {
            response = http.send(built, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (ConnectException | HttpConnectTimeoutException e) {
            throw unreachable(service, e);
        } catch (HttpTimeoutException e) {
            throw new CliException("Cannot get an answer from " + service.displayName() + " at " + endpoints.url(service)
                    + " within " + REQUEST_TIMEOUT.toSeconds() + " s: is it overloaded? See ./cryo status", e);
        } catch (IOException e) {
            throw unreachable(service, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException("Interrupted while asking " + service.displayName(), e);
        }
        String body = response.body() == null ? "" : response.body();
        if (response.statusCode() >= 400) {
            throw error(service, built, response.statusCode(), body);
        }
        if (body.isBlank()) {
            return MissingNode.getInstance();
        }
        try {
            return json.readTree(body);
        } catch (IOException e) {
            throw new CliException("Cannot read the answer of " + service.displayName() + " to " + built.method() + " "
                    + built.uri().getPath() + ": it is not JSON (" + e.getMessage() + ")", e);
        }
    }

    private CliException unreachable(Service service, Exception cause) {
        return new CliException("Cannot reach " + service.displayName() + " at " + endpoints.url(service)
                + ": start Cryo with ./cryo demo (or ./cryo up), or point " + service.urlVariable() + " at it", cause);
    }

    private ApiError error(Service service, HttpRequest request, int status, String body) {
        String code = null;
        String message = null;
        try {
            JsonNode error = json.readTree(body);
            code = error.path("code").isTextual() ? error.path("code").asText() : null;
            message = error.path("message").isTextual() ? error.path("message").asText() : null;
        } catch (IOException | RuntimeException ignored) {
            // not Cryo's error body (a proxy, a crash page): the status says enough below
        }
        if (status == 401 && request.headers().firstValue("Authorization").isEmpty()) {
            message = "Cannot " + request.method() + " " + request.uri().getPath() + ": " + service.displayName()
                    + " closes its reads (401" + (message == null ? "" : ": " + message) + "); set CRYO_TOKEN to a viewer's"
                    + " or an operator's token";
        } else if (status == 401) {
            message = "Cannot " + request.method() + " " + request.uri().getPath() + ": " + service.displayName()
                    + " did not accept the token (401); set CRYO_TOKEN to an operator token, e.g. from .cryo-runtime/tokens.env";
        } else if (status == 403) {
            message = "Cannot " + request.method() + " " + request.uri().getPath() + ": the token is not an operator's (403);"
                    + " changes need the operator token";
        } else if (message == null) {
            message = service.displayName() + " answered " + status + " to " + request.method() + " " + request.uri().getPath()
                    + (body.isBlank() ? "" : ": " + abbreviate(body));
        }
        return new ApiError(service, status, code, message);
    }

    private static String abbreviate(String text) {
        String line = text.replaceAll("\\s+", " ").trim();
        return line.length() > 200 ? line.substring(0, 200) + "…" : line;
    }
}
