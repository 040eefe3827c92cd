package dev.cryo.executor.rest;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.executor.config.ConfiguredEngines;
import dev.cryo.executor.config.ExecutorConfig;
import dev.cryo.executor.domain.OrphanAgeFloor;
import dev.cryo.executor.engine.StepResult;
import dev.cryo.executor.iceberg.NativeEngine;
import dev.cryo.platform.error.CryoException;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** The engines of this executor and what they can do; a dry run of orphan removal. Read-only. */
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
public class EnginesResource {

    /** An engine and its capabilities. */
    public record EngineView(Engine engine, Set<Operation> operations, Set<String> transforms) {
    }

    /** The engines of this executor and where a step goes that the job's engine cannot run. */
    public record RoutingView(List<Engine> fallbackEngines) {
    }

    /** What remove_orphan_files would delete now. */
    public record OrphansView(String table, Duration ageFloor, long files, long bytes, List<String> locations) {
    }

    private final NativeEngine nativeEngine;
    private final ConfiguredEngines engines;
    private final ExecutorConfig config;

    EnginesResource(NativeEngine nativeEngine, ConfiguredEngines engines, ExecutorConfig config) {
        this.nativeEngine = nativeEngine;
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

    /** The orphans of a table, deleting nothing: the same list remove_orphan_files would delete. */
    @GET
    @Path("/tables/{table}/orphans")
    public OrphansView orphans(@PathParam("table") String table, @QueryParam("ageFloor") String ageFloor) {
        TableId id;
        Duration floor;
        try {
            id = TableId.parse(table);
            floor = ageFloor == null ? null : Duration.parse(ageFloor);
        } catch (IllegalArgumentException | DateTimeParseException e) {
            throw CryoException.invalid("Cannot list orphans: " + e.getMessage());
        }
        if (floor != null && floor.compareTo(OrphanAgeFloor.MINIMUM) < 0) {
            throw CryoException.invalid("Cannot list orphans younger than " + floor + ": the age floor must be at least "
                    + OrphanAgeFloor.MINIMUM);
        }
        StepResult result = nativeEngine.findOrphans(id, floor);
        return new OrphansView(id.toString(), floor, result.before().dataFiles(), result.before().dataBytes(),
                result.files());
    }
}
