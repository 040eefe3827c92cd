package dev.cryo.console.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.cryo.console.config.ConsoleConfig;
import dev.cryo.contracts.json.EventJson;
import io.quarkus.rest.client.reactive.QuarkusRestClientBuilder;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.ext.ResponseExceptionMapper;

import java.net.URI;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The console's one way to the services: a REST client per service, every call turned into a value or a
 * {@link ServiceException} that says which service failed and how, and calls run side by side so that a
 * page waits for its slowest service, not for their sum.
 */
@ApplicationScoped
public class Services {

    /** Calls one page may run at once; the console serves a handful of operators. */
    private static final int PARALLEL_CALLS = 16;

    private final Map<Service, URI> baseUris = new EnumMap<>(Service.class);
    private final ScannerApi scanner;
    private final ScorerApi scorer;
    private final PlannerApi planner;
    private final GovernorApi governor;
    private final ExecutorApi executor;
    private final AuditApi audit;
    private final ExecutorService calls;

    Services(ConsoleConfig config) {
        ConsoleConfig.Services uris = config.services();
        baseUris.put(Service.SCANNER, uris.scanner());
        baseUris.put(Service.SCORER, uris.scorer());
        baseUris.put(Service.PLANNER, uris.planner());
        baseUris.put(Service.GOVERNOR, uris.governor());
        baseUris.put(Service.EXECUTOR, uris.executor());
        baseUris.put(Service.AUDIT, uris.audit());
        scanner = client(Service.SCANNER, ScannerApi.class, config);
        scorer = client(Service.SCORER, ScorerApi.class, config);
        planner = client(Service.PLANNER, PlannerApi.class, config);
        governor = client(Service.GOVERNOR, GovernorApi.class, config);
        executor = client(Service.EXECUTOR, ExecutorApi.class, config);
        audit = client(Service.AUDIT, AuditApi.class, config);
        AtomicInteger threads = new AtomicInteger();
        ThreadFactory factory = runnable -> {
            Thread thread = new Thread(runnable, "cryo-console-call-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
        calls = Executors.newFixedThreadPool(PARALLEL_CALLS, factory);
    }

    @PreDestroy
    void close() {
        calls.shutdownNow();
    }

    public URI baseUri(Service service) {
        return baseUris.get(service);
    }

    public <T> T scanner(Function<ScannerApi, T> call) {
        return call(Service.SCANNER, scanner, call);
    }

    public <T> T scorer(Function<ScorerApi, T> call) {
        return call(Service.SCORER, scorer, call);
    }

    public <T> T planner(Function<PlannerApi, T> call) {
        return call(Service.PLANNER, planner, call);
    }

    public <T> T governor(Function<GovernorApi, T> call) {
        return call(Service.GOVERNOR, governor, call);
    }

    public <T> T executor(Function<ExecutorApi, T> call) {
        return call(Service.EXECUTOR, executor, call);
    }

    public <T> T audit(Function<AuditApi, T> call) {
        return call(Service.AUDIT, audit, call);
    }

    /** Runs a call on the console's call pool; the result holds the value or the service's failure. */
    public <T> CompletableFuture<Fetched<T>> fetch(java.util.function.Supplier<T> call) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return Fetched.of(call.get());
            } catch (ServiceException e) {
                return Fetched.<T>failed(e);
            }
        }, calls);
    }

    private <A, T> T call(Service service, A client, Function<A, T> call) {
        URI base = baseUris.get(service);
        try {
            return call.apply(client);
        } catch (ServiceException e) {
            throw e;
        } catch (WebApplicationException e) {
            throw refusal(service, base, e.getResponse());
        } catch (ProcessingException e) {
            ServiceException mapped = find(e, ServiceException.class);
            if (mapped != null) {
                throw mapped;
            }
            JsonProcessingException json = find(e, JsonProcessingException.class);
            if (json != null) {
                throw ServiceException.unreadable(service, base, json.getOriginalMessage(), e);
            }
            throw ServiceException.unreachable(service, base, rootMessage(e), e);
        }
    }

    private <A> A client(Service service, Class<A> api, ConsoleConfig config) {
        URI base = baseUris.get(service);
        return QuarkusRestClientBuilder.newBuilder()
                .baseUri(base)
                .connectTimeout(config.connectTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .readTimeout(config.readTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .register(new RefusalMapper(service, base))
                .register(new ReadToken(config.readToken()))
                .build(api);
    }

    /**
     * Reads an error answer: the services answer {@code {"code", "type", "message"}}; 401 and 403 from the
     * security layer come without a body.
     */
    static ServiceException refusal(Service service, URI base, Response response) {
        int status = response.getStatus();
        String code = null;
        String message = null;
        try {
            String body = response.hasEntity() ? response.readEntity(String.class) : null;
            if (body != null && !body.isBlank()) {
                JsonNode json = EventJson.mapper().readTree(body);
                if (json != null && json.isObject()) {
                    code = json.hasNonNull("code") ? json.get("code").asText() : null;
                    message = json.hasNonNull("message") ? json.get("message").asText() : null;
                } else {
                    message = body.length() > 300 ? body.substring(0, 300) + "…" : body;
                }
            }
        } catch (JsonProcessingException | RuntimeException e) {
            message = "an error answer the console cannot read (" + e.getMessage() + ")";
        }
        if (message == null) {
            message = switch (status) {
                case 401 -> "the token is not known to the service (sign in again with an operator token)";
                case 403 -> "the token does not allow this: it needs the operator role";
                default -> response.getStatusInfo().getReasonPhrase();
            };
        }
        return ServiceException.refused(service, base, status, code, message);
    }

    private static <E extends Throwable> E find(Throwable error, Class<E> type) {
        for (Throwable cause = error; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (type.isInstance(cause)) {
                return type.cast(cause);
            }
        }
        return null;
    }

    private static String rootMessage(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage();
        return message == null || message.isBlank() ? root.getClass().getSimpleName() : message;
    }

    /** Turns every error answer of one service into a {@link ServiceException}. */
    private record RefusalMapper(Service service, URI base) implements ResponseExceptionMapper<ServiceException> {
        @Override
        public ServiceException toThrowable(Response response) {
            return refusal(service, base, response);
        }
    }
}
