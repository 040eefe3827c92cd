package dev.cryo.console.web;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A hand-written stand-in for one service's HTTP API: it answers what a test told it to, per method
 * and path, and records every request (with its Authorization header) so a test can see what the console
 * sent. Unknown paths answer 404 in the services' error format.
 */
final class FakeService implements AutoCloseable {

    /** What the fake answers to one method and path. */
    record Answer(int status, String body) {
    }

    /** A request the console made. */
    record Request(String method, String path, String query, String authorization, String body) {
    }

    private final String name;
    private final HttpServer server;
    private final Map<String, Function<Request, Answer>> answers = new ConcurrentHashMap<>();
    private final List<Request> requests = new CopyOnWriteArrayList<>();

    FakeService(String name) throws IOException {
        this.name = name;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** Answers {@code method path} (the decoded path, without the query) with this status and JSON body. */
    FakeService answer(String method, String path, int status, String body) {
        return answer(method, path, request -> new Answer(status, body));
    }

    /** Answers {@code method path} depending on the request (its token, its body). */
    FakeService answer(String method, String path, Function<Request, Answer> responder) {
        answers.put(method + " " + path, responder);
        return this;
    }

    List<Request> requests() {
        return List.copyOf(requests);
    }

    void reset() {
        answers.clear();
        requests.clear();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String body;
            try (InputStream in = exchange.getRequestBody()) {
                body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            String path = exchange.getRequestURI().getPath();
            Request request = new Request(exchange.getRequestMethod(), path, exchange.getRequestURI().getQuery(),
                    exchange.getRequestHeaders().getFirst("Authorization"), body);
            requests.add(request);
            Function<Request, Answer> responder = answers.get(exchange.getRequestMethod() + " " + path);
            Answer answer = responder != null ? responder.apply(request) : new Answer(404,
                    "{\"code\":\"NOT_FOUND\",\"type\":\"USER\",\"message\":\"Cannot find " + path + " on the fake " + name
                            + "\"}");
            byte[] bytes = answer.body() == null ? new byte[0] : answer.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(answer.status(), bytes.length == 0 ? -1 : bytes.length);
            if (bytes.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(bytes);
                }
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
