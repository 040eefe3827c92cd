package dev.cryo.executor.iceberg;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.executor.ExecutorErrorCode;
import dev.cryo.executor.domain.OrphanAgeFloor;
import dev.cryo.executor.domain.StepKey;
import dev.cryo.executor.engine.CommitTags;
import dev.cryo.executor.engine.EngineCapabilities;
import dev.cryo.executor.engine.MaintenanceEngine;
import dev.cryo.executor.engine.StepRequest;
import dev.cryo.executor.engine.StepResult;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.platform.error.CryoException;
import io.quarkus.logging.Log;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.util.PropertyUtil;

import java.time.Clock;
import java.time.Duration;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * The embedded engine: all seven operations through the Iceberg Java API, no cluster. See
 * {@link ChunkRewriter} for how rewrites stay safe next to streaming writers.
 */
public final class NativeEngine implements MaintenanceEngine {

    private static final EngineCapabilities CAPABILITIES = new EngineCapabilities(EnumSet.allOf(Operation.class),
            Set.of("identity", "year", "month", "day", "hour", "bucket", "truncate", "void"));

    private final TableLoader tables;
    private final NativeEngineSettings settings;
    private final Clock clock;
    private final WriteMemory memory = WriteMemory.shareOfHeap();

    public NativeEngine(CatalogRegistry catalogs, NativeEngineSettings settings, Clock clock) {
        this.tables = new TableLoader(requireNonNull(catalogs, "catalogs is null"));
        this.settings = requireNonNull(settings, "settings is null");
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
        OperationParameters parameters = request.parameters();
        Operation operation = request.step().operation();
        Map<String, String> tags = tags(request.jobId(), request.step());
        Log.debugf("%s: running %s of job %s", request.table(), request.step(), request.jobId());
        return switch (operation) {
            case OPTIMIZE -> rewriter(table, parameters, tags)
                    .rewrite(PartitionScope.of(table, request.partitions()), ChunkRewriter.Selection.BIN_PACK);
            case CONVERT_DELETES -> rewriter(table, parameters, tags)
                    .rewrite(PartitionScope.of(table, request.partitions()), ChunkRewriter.Selection.EQUALITY_DELETES);
            case REWRITE_POSITION_DELETES -> rewriter(table, parameters, tags)
                    .rewrite(PartitionScope.of(table, request.partitions()), ChunkRewriter.Selection.POSITION_DELETES);
            case COMPUTE_STATISTICS -> new StatisticsWriter(table).compute(request.jobId());
            case OPTIMIZE_MANIFESTS -> new ManifestRewriter(table).rewrite(tags);
            case EXPIRE_SNAPSHOTS -> new SnapshotExpirer(table).expire(snapshotRetention(table, parameters),
                    retainLast(table, parameters), clock.instant());
            case REMOVE_ORPHAN_FILES -> removeOrphans(table, parameters.orphanAgeFloor(), settings.orphanDryRun());
        };
    }

    /** The orphan files of a table without deleting them: what remove_orphan_files would delete. */
    public StepResult findOrphans(TableId table, Duration ageFloor) {
        return removeOrphans(load(table), ageFloor, true);
    }

    private StepResult removeOrphans(Table table, Duration requestedFloor, boolean dryRun) {
        Duration floor;
        try {
            floor = OrphanAgeFloor.resolve(requestedFloor, settings.orphanAgeFloor());
        } catch (IllegalArgumentException e) {
            throw new CryoException(ExecutorErrorCode.UNSAFE_PARAMETER, e.getMessage(), e);
        }
        return new OrphanRemover(table).remove(floor, clock.instant(), dryRun);
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
                    Log.warnf("%s: snapshot %d carries an unreadable %s: %s", tableId, snapshot.snapshotId(),
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

    private ChunkRewriter rewriter(Table table, OperationParameters parameters, Map<String, String> tags) {
        long target = parameters.targetFileSizeBytes() != null ? parameters.targetFileSizeBytes()
                : PropertyUtil.propertyAsLong(table.properties(), TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
                TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT);
        return new ChunkRewriter(table, settings.rewrite(), memory, target, tags);
    }

    private Duration snapshotRetention(Table table, OperationParameters parameters) {
        if (parameters.snapshotRetention() != null) {
            return parameters.snapshotRetention();
        }
        String property = table.properties().get(TableProperties.MAX_SNAPSHOT_AGE_MS);
        return property == null ? settings.snapshotRetention() : Duration.ofMillis(Long.parseLong(property));
    }

    private int retainLast(Table table, OperationParameters parameters) {
        if (parameters.retainLast() != null) {
            return parameters.retainLast();
        }
        return PropertyUtil.propertyAsInt(table.properties(), TableProperties.MIN_SNAPSHOTS_TO_KEEP, settings.retainLast());
    }

    private static Map<String, String> tags(String jobId, StepKey step) {
        return Map.of(CommitTags.JOB_ID, jobId, CommitTags.CHUNK, step.toString());
    }
}
