package dev.cryo.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.cryo.cli.api.Endpoints;
import dev.cryo.cli.api.Service;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A hand-written fake of Cryo's six services for the command line's tests: one real HTTP server
 * per service on a free port, answering what each test routes, recording every request.
 */
public final class FakeCryo implements AutoCloseable {

    /** One request as received. */
    public record Request(Service service, String method, String path, String query, String body, String authorization) {
    }

    /** An answer: status and JSON body. */
    public record Answer(int status, String body) {
        public static Answer ok(String body) {
            return new Answer(200, body);
        }

        public static Answer error(int status, String code, String message) {
            return new Answer(status, "{\"code\":\"" + code + "\",\"type\":\"USER\",\"message\":\"" + message + "\"}");
        }
    }

    private final Map<Service, HttpServer> servers = new EnumMap<>(Service.class);
    private final Map<String, Function<Request, Answer>> routes = new ConcurrentHashMap<>();
    private final List<Request> requests = new CopyOnWriteArrayList<>();

    public FakeCryo() throws IOException {
        for (Service service : Service.values()) {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/", exchange -> handle(service, exchange));
            server.start();
            servers.put(service, server);
        }
    }

    /** Routes {@code METHOD /path} (no query) of a service to an answer. */
    public FakeCryo route(Service service, String method, String path, Function<Request, Answer> answer) {
        routes.put(key(service, method, path), answer);
        return this;
    }

    public FakeCryo json(Service service, String method, String path, String body) {
        return route(service, method, path, request -> Answer.ok(body));
    }

    public List<Request> requests() {
        return List.copyOf(requests);
    }

    public List<Request> requests(Service service, String method, String path) {
        return requests.stream().filter(request -> request.service() == service && request.method().equals(method)
                && request.path().equals(path)).toList();
    }

    public Endpoints endpoints(Optional<String> token, Optional<Path> tokensFile) {
        Map<Service, URI> urls = new EnumMap<>(Service.class);
        servers.forEach((service, server) -> urls.put(service, URI.create("http://127.0.0.1:" + server.getAddress().getPort())));
        return new Endpoints(urls, token, tokensFile);
    }

    /** Runs the command line against these fakes with an operator token. */
    public Run run(String... arguments) {
        return run(endpoints(Optional.of("fake-operator-token-000001"), Optional.empty()), arguments);
    }

    public static Run run(Endpoints endpoints, String... arguments) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var commandLine = CryoCli.commandLine(new CryoCli(endpoints, Clock.systemUTC(), ZoneOffset.UTC));
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int exit = commandLine.execute(arguments);
        return new Run(exit, out.toString(), err.toString());
    }

    /** What a run printed and returned. */
    public record Run(int exit, String out, String err) {
    }

    private void handle(Service service, HttpExchange exchange) throws IOException {
        try (exchange) {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            URI uri = exchange.getRequestURI();
            Request request = new Request(service, exchange.getRequestMethod(), uri.getRawPath(), uri.getRawQuery(), body,
                    exchange.getRequestHeaders().getFirst("Authorization"));
            requests.add(request);
            Function<Request, Answer> route = routes.get(key(service, request.method(), request.path()));
            Answer answer = route == null ? Answer.error(404, "NOT_ROUTED", "no fake answer for " + request.method() + " "
                    + request.path()) : route.apply(request);
            byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(answer.status(), bytes.length == 0 ? -1 : bytes.length);
            if (bytes.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(bytes);
                }
            }
        }
    }

    private static String key(Service service, String method, String path) {
        return service + " " + method + " " + path;
    }

    @Override
    public void close() {
        servers.values().forEach(server -> server.stop(0));
    }
}
