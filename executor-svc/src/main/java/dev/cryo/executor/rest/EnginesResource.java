package dev.cryo.executor.rest;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.Operation;
import dev.cryo.executor.config.ConfiguredEngines;
import dev.cryo.executor.config.ExecutorConfig;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** The engines of this executor and what they can do. Read-only. */
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
public class EnginesResource {

    /** An engine and its capabilities. */
    public record EngineView(Engine engine, Set<Operation> operations, Set<String> transforms) {
    }

    /** The engines of this executor and where a step goes that the job's engine cannot run. */
    public record RoutingView(List<Engine> fallbackEngines) {
    }

    private final ConfiguredEngines engines;
    private final ExecutorConfig config;

    EnginesResource(ConfiguredEngines engines, ExecutorConfig config) {
        this.engines = engines;
        this.config = config;
    }

    /** The engines this executor runs, native first. */
    @GET
    @Path("/engines")
    public List<EngineView> engines() {
        return engines.engines().values().stream()
                .map(engine -> new EngineView(engine.engine(), new TreeSet<>(engine.capabilities().operations()),
                        new TreeSet<>(engine.capabilities().transforms())))
                .toList();
    }

    /** The fallback engines, tried in order after the job's engine. */
    @GET
    @Path("/engines/routing")
    public RoutingView routing() {
        return new RoutingView(config.fallbackEngines());
    }
}
