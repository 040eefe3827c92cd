package dev.cryo.executor.sql;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.enginesql.CapabilityMatrix;
import dev.cryo.enginesql.EngineClient;
import dev.cryo.enginesql.EngineExecutionException;
import dev.cryo.enginesql.ExecutedStatement;
import dev.cryo.enginesql.OperationCapability;
import dev.cryo.enginesql.Rendering;
import dev.cryo.enginesql.SqlRenderer;
import dev.cryo.enginesql.expression.CannotRenderException;
import dev.cryo.executor.ExecutorErrorCode;
import dev.cryo.executor.engine.StepKey;
import dev.cryo.executor.engine.EngineCapabilities;
import dev.cryo.executor.engine.EngineStepException;
import dev.cryo.executor.engine.EngineStepLog;
import dev.cryo.executor.engine.JobRecords;
import dev.cryo.executor.engine.MaintenanceEngine;
import dev.cryo.executor.engine.StepRequest;
import dev.cryo.executor.engine.StepResult;
import dev.cryo.executor.engine.OrphanAgeFloor;
import dev.cryo.executor.iceberg.ExpiryGuard;
import dev.cryo.executor.iceberg.OperationDefaults;
import dev.cryo.executor.iceberg.OrphanRemovalSettings;
import dev.cryo.executor.iceberg.OrphanRemover;
import dev.cryo.executor.iceberg.TableLoader;
import dev.cryo.platform.error.CryoException;
import io.quarkus.logging.Log;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * Trino or Spark as a maintenance engine: renders each step with engine-sql's renderer, runs the
 * statements on the user's long-running server through its client (Cryo's user and tag, query
 * timeout, cancellation by job), and then reads what happened from the table itself — the
 * snapshots the engine committed, files before and after from their summaries, and for data
 * rewrites the rows of every partition they touched, compared before and after. An engine's
 * commit cannot be undone by Cryo: a mismatch fails the step loudly, naming engine, query and
 * snapshots.
 */
public final class SqlEngine implements MaintenanceEngine {

    private static final Set<Operation> REWRITES = Set.of(Operation.CONVERT_DELETES, Operation.REWRITE_POSITION_DELETES,
            Operation.OPTIMIZE);
    /**
     * How much longer than checked an expiry's retention is when it keeps a protected snapshot: the
     * engine measures it from its own clock, later and perhaps on another host.
     */
    static final Duration ENGINE_CLOCK_MARGIN = Duration.ofHours(1);

    private final SqlRenderer renderer;
    private final EngineClient client;
    private final CapabilityMatrix matrix;
    private final EngineCapabilities capabilities;
    private final TableLoader tables;
    private final OperationDefaults defaults;
    private final JobRecords records;
    private final EngineStepLog log;
    private final ExpiryGuard expiryGuard;
    private final Clock clock;
    private final String engineUser;
    private final Map<String, String> runningTags = new ConcurrentHashMap<>();

    /**
     * @param engineUser the user the engine records in its commits' summaries (Trino's
     *                   {@code trino_user}); null when it records none (Spark)
     */
    public SqlEngine(SqlRenderer renderer, EngineClient client, CapabilityMatrix matrix, TableLoader tables,
                     OperationDefaults defaults, JobRecords records, Clock clock, String engineUser) {
        this.renderer = requireNonNull(renderer, "renderer is null");
        this.client = requireNonNull(client, "client is null");
        if (renderer.engine() != client.engine()) {
            throw new IllegalArgumentException("Cannot pair the " + renderer.engine().id() + " renderer with a "
                    + client.engine().id() + " client");
        }
        this.matrix = requireNonNull(matrix, "matrix is null");
        this.capabilities = capabilities(renderer.engine(), matrix);
        this.tables = requireNonNull(tables, "tables is null");
        this.defaults = requireNonNull(defaults, "defaults is null");
        this.records = requireNonNull(records, "records is null");
        this.log = records.stepLog();
        this.expiryGuard = new ExpiryGuard(records.runningJobs(), records.stepLog());
        this.clock = requireNonNull(clock, "clock is null");
        this.engineUser = engineUser;
    }

    private static EngineCapabilities capabilities(Engine engine, CapabilityMatrix matrix) {
        Set<Operation> operations = matrix.capabilities().stream()
                .filter(capability -> capability.engine() == engine && capability.isAvailable())
                .map(OperationCapability::operation).collect(Collectors.toSet());
        Set<String> transforms = matrix.transforms(engine).stream()
                .map(kind -> kind.name().toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
        return new EngineCapabilities(operations, transforms);
    }

    @Override
    public Engine engine() {
        return renderer.engine();
    }

    @Override
    public EngineCapabilities capabilities() {
        return capabilities;
    }

    @Override
    public StepResult run(StepRequest request) {
        Table table = tables.load(request.table());
        Operation operation = request.step().operation();
        refuseFormatVersion(table, request);
        OperationParameters parameters = defaults.resolve(table, operation, request.parameters());
        Snapshot start = table.currentSnapshot();
        if (start == null) {
            return StepResult.nothingToDo("the table has no snapshot");
        }
        Preflight preflight = preflight(table, request, parameters);
        if (preflight.answer() != null) {
            return preflight.answer();
        }
        parameters = preflight.parameters();
        List<String> statements = render(request.withParameters(parameters));
        StepOutcomes.Storage storageBefore = operation == Operation.EXPIRE_SNAPSHOTS || operation == Operation.REMOVE_ORPHAN_FILES
                ? StepOutcomes.Storage.of(table) : null;
        List<ManifestFile> manifestsBefore = operation == Operation.OPTIMIZE_MANIFESTS
                ? start.dataManifests(table.io()) : List.of();
        int snapshotsBefore = StepOutcomes.count(table.snapshots());

        log.started(request.jobId(), request.step(), engine(), start.snapshotId());
        Log.debugf("%s: running %s of job %s on %s: %s", request.table(), request.step(), request.jobId(), engine().id(),
                statements);
        List<ExecutedStatement> executed;
        // A tag of its own per run: a cancellation that arrives after the statements ended must not
        // linger in the client and stop a later run of the same job.
        String runTag = request.jobId() + "/" + request.step() + "/" + UUID.randomUUID();
        runningTags.put(request.jobId(), runTag);
        try {
            executed = client.execute(runTag, statements);
        } catch (EngineExecutionException e) {
            List<String> queryIds = new ArrayList<>(e.completed().stream().map(ExecutedStatement::queryId).toList());
            if (e.queryId() != null) {
                queryIds.add(e.queryId());
            }
            if (REWRITES.contains(operation)) {
                // Spark commits file groups as it goes (partial progress): what it committed before failing is checked too.
                table.refresh();
                RewriteChecks.verify(table, request, engine(), RewriteChecks.commitsBy(table, start, queryIds), queryIds);
            }
            throw new EngineStepException(failureCode(e.failure()), e.getMessage() + advice(e.failure()),
                    joined(queryIds), e);
        } finally {
            runningTags.remove(request.jobId(), runTag);
        }
        List<String> queryIds = executed.stream().map(ExecutedStatement::queryId).toList();
        table.refresh();
        String ran = engine().id() + " ran " + statements.size() + (statements.size() == 1 ? " statement" : " statements")
                + " (query " + joined(queryIds) + ")";
        return switch (operation) {
            case CONVERT_DELETES, REWRITE_POSITION_DELETES, OPTIMIZE ->
                    RewriteChecks.result(table, request, engine(), start, ran, queryIds);
            case COMPUTE_STATISTICS -> StepOutcomes.statistics(table, ran, queryIds);
            case OPTIMIZE_MANIFESTS -> StepOutcomes.manifests(table, start, manifestsBefore, ran, queryIds);
            case EXPIRE_SNAPSHOTS, REMOVE_ORPHAN_FILES -> StepOutcomes.removedFiles(table, operation, parameters, storageBefore,
                    snapshotsBefore, ran, preflight.guards(), queryIds);
        };
    }

    /**
     * Cryo's own guards, run before the engine is asked, on the same model as the native engine's (the
     * engine deletes by its own rules): an expiry keeps what Cryo protects and gets a retention with a
     * margin for the engine's clock; an orphan removal is checked (or dry-run) by Cryo first.
     *
     * @param parameters the guarded parameters
     * @param guards what the guards found, for the step's message
     * @param answer the step's result when the engine need not be asked, else null
     */
    private record Preflight(OperationParameters parameters, String guards, StepResult answer) {
    }

    private Preflight preflight(Table table, StepRequest request, OperationParameters parameters) {
        Operation operation = request.step().operation();
        String guards = "";
        if (operation == Operation.EXPIRE_SNAPSHOTS) {
            ExpiryGuard.Expiry expiry = expiryGuard.check(table, request.table(), request.jobId(),
                    parameters.snapshotRetention(), parameters.retainLast(), clock.instant());
            if (expiry.expiring() == 0) {
                return new Preflight(parameters, guards, StepResult.nothingToDo("no snapshot to expire (retention "
                        + expiry.retention() + ", retain last " + expiry.retainLast() + expiry.describeProtected() + "); "
                        + engine().id() + " was not asked"));
            }
            parameters = new OperationParameters(parameters.targetFileSizeBytes(),
                    expiry.retentionWithMargin(ENGINE_CLOCK_MARGIN), parameters.retainLast(), parameters.orphanAgeFloor());
            guards = expiry.describeProtected();
        } else if (operation == Operation.REMOVE_ORPHAN_FILES) {
            OrphanRemovalSettings orphans = defaults.orphans();
            OrphanAgeFloor floor = orphans.floor(parameters.orphanAgeFloor());
            OrphanRemover remover = new OrphanRemover(table, orphans, clock, tables::locations);
            if (orphans.dryRun()) {
                StepResult natively = remover.remove(floor, OrphanRemover.Mode.DRY_RUN, request.table(), request.jobId(),
                        records.brakeReleases());
                if (engine() == Engine.TRINO) {
                    return new Preflight(parameters, guards, new StepResult(natively.before(), natively.after(), null, 0,
                            "Trino's remove_orphan_files has no dry run; Cryo's own: " + natively.message(),
                            natively.files()).withChanged(false));
                }
                guards = "; Cryo's own dry run: " + natively.message();
            } else {
                StepResult check = remover.remove(floor, OrphanRemover.Mode.CHECK, request.table(), request.jobId(),
                        records.brakeReleases());
                if (check.before().dataFiles() == 0) {
                    return new Preflight(parameters, guards, StepResult.nothingToDo("no orphan files: " + check.message()
                            + "; " + engine().id() + " was not asked"));
                }
                guards = "; before it, Cryo " + check.message();
            }
        }
        return new Preflight(parameters, guards, null);
    }

    /**
     * Routing sends a step away from an engine that refuses the table's format version or would
     * lose its rows' lineage; this refuses it here too, before the engine is asked, for a step that
     * reaches this engine any other way.
     */
    private void refuseFormatVersion(Table table, StepRequest request) {
        int formatVersion = TableUtil.formatVersion(table);
        matrix.formatVersionLimit(engine(), request.step().operation(), formatVersion).ifPresent(limit -> {
            throw new CryoException(ExecutorErrorCode.NOT_ROUTABLE, "Cannot run " + request.step() + " of "
                    + request.table() + " (format version " + formatVersion + ") on " + engine().id() + " ("
                    + limit.limitation() + "): " + limit.reason() + "; route it to another engine with"
                    + " cryo.executor.fallback-engines");
        });
    }

    private List<String> render(StepRequest request) {
        Rendering rendering;
        try {
            rendering = renderer.render(request.table(), request.plannedOperation(), request.chunk());
        } catch (CannotRenderException e) {
            throw new CryoException(ExecutorErrorCode.CANNOT_RENDER, e.getMessage(), e);
        }
        if (rendering instanceof Rendering.NotExpressible not) {
            throw new CryoException(ExecutorErrorCode.NOT_ROUTABLE, "Cannot run " + request.step() + " of "
                    + request.table() + " on " + engine().id() + " (" + not.limitation() + "): " + not.reason()
                    + "; route it to another engine with cryo.executor.fallback-engines");
        }
        return ((Rendering.Statements) rendering).statements();
    }

    /**
     * Whether an expiry removed a snapshot, or an orphan removal a file; null when the storage under
     * the table cannot be listed and an orphan removal's effect is therefore unknown.
     */
    @Override
    public Map<StepKey, Long> committedSteps(TableId tableId, String jobId) {
        if (engineUser == null) {
            // Spark's procedures write nothing into their commits that names Cryo or the job (Iceberg 1.10
            // passes no snapshot properties through them): its steps run again, finding nothing left to do.
            return Map.of();
        }
        List<EngineStepLog.StartedStep> started = log.started(jobId);
        if (started.stream().noneMatch(step -> step.engine() == engine())) {
            return Map.of();
        }
        Table table = tables.load(tableId);
        Map<StepKey, Long> committed = new LinkedHashMap<>();
        for (int k = 0; k < started.size(); k++) {
            EngineStepLog.StartedStep step = started.get(k);
            if (step.engine() != engine() || !REWRITES.contains(step.step().operation())) {
                continue;
            }
            Long nextStart = k + 1 < started.size() ? started.get(k + 1).startSnapshotId() : null;
            Long found = null;
            for (Snapshot snapshot : EngineCommits.after(table, step.startSnapshotId())) {
                if ("replace".equals(snapshot.operation())
                        && engineUser.equals(EngineCommits.summary(snapshot).get(EngineCommits.TRINO_USER))) {
                    found = snapshot.snapshotId();
                }
                if (nextStart != null && snapshot.snapshotId() == nextStart) {
                    break;
                }
            }
            if (found != null) {
                committed.put(step.step(), found);
            }
        }
        return committed;
    }

    @Override
    public void cancel(String jobId) {
        String runTag = runningTags.get(jobId);
        if (runTag != null) {
            client.cancel(runTag);
        }
    }

    private static ExecutorErrorCode failureCode(EngineExecutionException.Failure failure) {
        return switch (failure) {
            case FAILED -> ExecutorErrorCode.ENGINE_QUERY_FAILED;
            case TIMED_OUT -> ExecutorErrorCode.ENGINE_TIMEOUT;
            case CANCELLED -> ExecutorErrorCode.ENGINE_CANCELLED;
            case UNREACHABLE -> ExecutorErrorCode.ENGINE_UNREACHABLE;
        };
    }

    private String advice(EngineExecutionException.Failure failure) {
        return switch (failure) {
            case TIMED_OUT -> "; raise cryo.executor." + engine().id() + ".query-timeout or plan smaller chunks";
            case UNREACHABLE -> "; check that the server runs and cryo.executor." + engine().id()
                    + (engine() == Engine.TRINO ? ".jdbc-url" : ".remote");
            case FAILED, CANCELLED -> "";
        };
    }

    static String joined(List<String> queryIds) {
        List<String> present = queryIds.stream().filter(id -> id != null && !id.isBlank()).toList();
        return present.isEmpty() ? null : String.join(",", present);
    }

    static String ids(List<Snapshot> snapshots) {
        return snapshots.stream().map(snapshot -> Long.toString(snapshot.snapshotId())).collect(Collectors.joining(", ", "[", "]"));
    }

}
