package dev.cryo.executor.app;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.Operation;
import dev.cryo.enginesql.EngineRouter;
import dev.cryo.enginesql.Route;
import dev.cryo.enginesql.expression.CannotRenderException;
import dev.cryo.executor.ExecutorErrorCode;
import dev.cryo.executor.engine.StepRequest;
import dev.cryo.executor.iceberg.OperationDefaults;
import dev.cryo.executor.iceberg.TableLoader;
import dev.cryo.platform.error.CryoException;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Picks the engine of each step: the job's engine when it can run the step, otherwise the next
 * engine of the policy — the job's engine, then {@code cryo.executor.fallback-engines} (default
 * native). Whether an engine can is engine-sql's capability matrix, which for Trino and Spark
 * renders the step with the parameters it will run with, so a chunk that an engine cannot
 * address exactly, a parameter it has no argument for, or a table format version it must not
 * touch (format v3 on Trino 476; Spark's rewrite_manifests, which loses row lineage) is routed
 * too. A step is never dropped: if no engine of the policy can run it, it fails with every
 * engine's reason.
 */
public final class PolicyRouting {

    /**
     * Where a step runs.
     *
     * @param engine the engine that runs it
     * @param routedReason why it does not run on the job's engine, or null when it does
     * @param request the step with the parameters resolved from the plan, the table and the executor's defaults
     */
    public record RoutedStep(Engine engine, String routedReason, StepRequest request) {
        public RoutedStep {
            requireNonNull(engine, "engine is null");
            requireNonNull(request, "request is null");
        }
    }

    private final EngineRouter router;
    private final List<Engine> fallbackEngines;
    private final TableLoader tables;
    private final OperationDefaults defaults;

    public PolicyRouting(EngineRouter router, List<Engine> fallbackEngines, TableLoader tables, OperationDefaults defaults) {
        this.router = requireNonNull(router, "router is null");
        this.fallbackEngines = List.copyOf(requireNonNull(fallbackEngines, "fallbackEngines is null"));
        this.tables = requireNonNull(tables, "tables is null");
        this.defaults = requireNonNull(defaults, "defaults is null");
    }

    /** The engines a job's steps may run on, in order: the job's engine, then the fallback engines. */
    public List<Engine> policy(Engine chosen) {
        requireNonNull(chosen, "chosen is null");
        List<Engine> engines = new ArrayList<>();
        engines.add(chosen);
        engines.addAll(fallbackEngines);
        return List.copyOf(new LinkedHashSet<>(engines));
    }

    /**
     * @throws CryoException NOT_ROUTABLE when no engine of the policy can run the step,
     *         CANNOT_RENDER when the plan holds something no statement can carry safely,
     *         TABLE_NOT_FOUND / CATALOG_NOT_FOUND / UNSAFE_PARAMETER from the table and its parameters
     */
    public RoutedStep route(Engine chosen, StepRequest request) {
        List<Engine> policy = policy(chosen);
        if (policy.equals(List.of(Engine.NATIVE))) {
            // The native engine runs everything and resolves its parameters itself: no table to load here.
            return new RoutedStep(Engine.NATIVE, null, request);
        }
        Operation operation = request.step().operation();
        Table table = tables.load(request.table());
        StepRequest resolved = request.withParameters(defaults.resolve(table, operation, request.parameters()));
        Route route;
        try {
            route = router.route(policy, request.table(), TableUtil.formatVersion(table), resolved.plannedOperation(),
                    resolved.chunk());
        } catch (CannotRenderException e) {
            throw new CryoException(ExecutorErrorCode.CANNOT_RENDER, e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new CryoException(ExecutorErrorCode.NOT_ROUTABLE, e.getMessage()
                    + " (the policy is the job's engine, then cryo.executor.fallback-engines)", e);
        }
        return new RoutedStep(route.engine(), route.passedOver().isEmpty() ? null : route.explanation(), resolved);
    }
}
