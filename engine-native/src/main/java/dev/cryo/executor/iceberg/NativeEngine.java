package dev.cryo.executor.iceberg;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.executor.ExecutorErrorCode;
import dev.cryo.executor.engine.OrphanAgeFloor;
import dev.cryo.executor.engine.StepKey;
import dev.cryo.executor.engine.CommitTags;
import dev.cryo.executor.engine.EngineCapabilities;
import dev.cryo.executor.engine.JobRecords;
import dev.cryo.executor.engine.MaintenanceEngine;
import dev.cryo.executor.engine.StepRequest;
import dev.cryo.executor.engine.StepResult;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.platform.error.CryoException;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;

import java.time.Clock;
import java.time.Duration;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.jboss.logging.Logger;

import static java.util.Objects.requireNonNull;

/**
 * The embedded engine: all seven operations through the Iceberg Java API, no cluster. See
 * {@link ChunkRewriter} for how rewrites stay safe next to streaming writers.
 */
public final class NativeEngine implements MaintenanceEngine {

    private static final Logger LOG = Logger.getLogger(NativeEngine.class);

    private static final EngineCapabilities CAPABILITIES = new EngineCapabilities(EnumSet.allOf(Operation.class),
            Set.of("identity", "year", "month", "day", "hour", "bucket", "truncate", "void"));

    private final TableLoader tables;
    private final NativeEngineSettings settings;
    private final OperationDefaults defaults;
    private final JobRecords records;
    private final ExpiryGuard expiryGuard;
    private final Clock clock;
    private final WriteMemory memory = WriteMemory.shareOfHeap();
    /** Column sketches of rewritten files, read back by optimize and reused by the same job's compute_statistics. */
    private final SketchCache sketches = new SketchCache();

    public NativeEngine(CatalogRegistry catalogs, NativeEngineSettings settings, JobRecords records, Clock clock) {
        this.tables = new TableLoader(requireNonNull(catalogs, "catalogs is null"));
        this.settings = requireNonNull(settings, "settings is null");
        this.defaults = settings.defaults();
        this.records = requireNonNull(records, "records is null");
        this.expiryGuard = new ExpiryGuard(records.runningJobs(), records.stepLog());
        this.clock = requireNonNull(clock, "clock is null");
    }

    @Override
    public Engine engine() {
        return Engine.NATIVE;
    }

    @Override
    public EngineCapabilities capabilities() {
        return CAPABILITIES;
    }

    @Override
    public StepResult run(StepRequest request) {
        Table table = load(request.table());
        Operation operation = request.step().operation();
        OperationParameters parameters = defaults.resolve(table, operation, request.parameters());
        Map<String, String> tags = tags(request.jobId(), request.step());
        LOG.debugf("%s: running %s of job %s", request.table(), request.step(), request.jobId());
        return switch (operation) {
            case OPTIMIZE -> rewriter(table, parameters, tags, request)
                    .rewrite(PartitionScope.of(table, request.partitions()), ChunkRewriter.Selection.BIN_PACK);
            case CONVERT_DELETES -> rewriter(table, parameters, tags, request)
                    .rewrite(PartitionScope.of(table, request.partitions()), ChunkRewriter.Selection.EQUALITY_DELETES);
            case REWRITE_POSITION_DELETES -> rewriter(table, parameters, tags, request)
                    .rewrite(PartitionScope.of(table, request.partitions()), ChunkRewriter.Selection.POSITION_DELETES);
            case COMPUTE_STATISTICS -> new StatisticsWriter(table, sketches).compute(request.jobId());
            case OPTIMIZE_MANIFESTS -> new ManifestRewriter(table).rewrite(tags);
            case EXPIRE_SNAPSHOTS -> {
                table.refresh();
                yield new SnapshotExpirer(table).expire(expiryGuard.check(table, request.table(), request.jobId(),
                        parameters.snapshotRetention(), parameters.retainLast(), clock.instant()));
            }
            case REMOVE_ORPHAN_FILES -> removeOrphans(table, request.table(), request.jobId(), parameters.orphanAgeFloor(),
                    settings.orphans().dryRun() ? OrphanRemover.Mode.DRY_RUN : OrphanRemover.Mode.DELETE);
        };
    }

    /** The orphan files of a table without deleting them: what remove_orphan_files would delete now. */
    public StepResult findOrphans(TableId table, Duration ageFloor) {
        OrphanAgeFloor floor = orphanFloor(ageFloor);
        return new OrphanRemover(load(table), settings.orphans(), clock, tables::locations).remove(floor,
                OrphanRemover.Mode.DRY_RUN, table, "orphan-listing", records.brakeReleases());
    }

    private StepResult removeOrphans(Table table, TableId tableId, String jobId, Duration requestedFloor,
                                     OrphanRemover.Mode mode) {
        return new OrphanRemover(table, settings.orphans(), clock, tables::locations).remove(orphanFloor(requestedFloor),
                mode, tableId, jobId, records.brakeReleases());
    }

    private OrphanAgeFloor orphanFloor(Duration requested) {
        try {
            return settings.orphans().floor(requested);
        } catch (IllegalArgumentException e) {
            throw new CryoException(ExecutorErrorCode.UNSAFE_PARAMETER, e.getMessage(), e);
        }
    }

    @Override
    public Map<StepKey, Long> committedSteps(TableId tableId, String jobId) {
        Table table = load(tableId);
        Map<StepKey, Long> committed = new LinkedHashMap<>();
        for (Snapshot snapshot = table.currentSnapshot(); snapshot != null;
             snapshot = snapshot.parentId() == null ? null : table.snapshot(snapshot.parentId())) {
            Map<String, String> summary = snapshot.summary();
            if (summary != null && jobId.equals(summary.get(CommitTags.JOB_ID)) && summary.get(CommitTags.CHUNK) != null) {
                try {
                    committed.putIfAbsent(StepKey.parse(summary.get(CommitTags.CHUNK)), snapshot.snapshotId());
                } catch (IllegalArgumentException e) {
                    LOG.warnf("%s: snapshot %d carries an unreadable %s: %s", tableId, snapshot.snapshotId(),
                            CommitTags.CHUNK, e.getMessage());
                }
            }
        }
        if (StatisticsWriter.writtenBy(table, jobId)) {
            committed.putIfAbsent(StepKey.table(Operation.COMPUTE_STATISTICS), null);
        }
        return committed;
    }

    /** Loads a table, naming what is missing. */
    public Table load(TableId tableId) {
        return tables.load(tableId);
    }

    private ChunkRewriter rewriter(Table table, OperationParameters parameters, Map<String, String> tags,
                                   StepRequest request) {
        // OperationDefaults resolved the target: the plan's, else the table's, else Iceberg's default.
        return new ChunkRewriter(table, settings.rewrite(), memory, parameters.targetFileSizeBytes(), tags)
                .sketchingInto(request.statisticsLater() ? sketches : null);
    }

    private static Map<String, String> tags(String jobId, StepKey step) {
        return Map.of(CommitTags.JOB_ID, jobId, CommitTags.CHUNK, step.toString());
    }
}
