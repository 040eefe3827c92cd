package dev.cryo.bench.harness;

import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.FieldPredicate;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.contracts.event.PartitionPredicate;
import dev.cryo.executor.engine.Backoff;
import dev.cryo.executor.engine.StepKey;
import dev.cryo.executor.engine.JobRecords;
import dev.cryo.executor.engine.StepRequest;
import dev.cryo.executor.engine.StepResult;
import dev.cryo.executor.iceberg.NativeEngine;
import dev.cryo.executor.iceberg.NativeEngineSettings;
import dev.cryo.executor.iceberg.OrphanRemovalSettings;
import dev.cryo.executor.iceberg.RewriteSettings;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The scheduled DAG on the native engine: for every table, every cycle, compaction of every
 * partition, a manifest rewrite and snapshot expiry, through executor-svc's {@link NativeEngine}
 * (the same Iceberg Java code path as Cryo's executor, with its default settings).
 */
public final class NativeDag {

    private static final Logger LOG = LoggerFactory.getLogger(NativeDag.class);

    /** The DAG's expiry: the engines' default retention, keep the last snapshot. */
    public static final OperationParameters EXPIRY = new OperationParameters(null, Duration.ofDays(7), 1, null);

    private static final int PARTITIONS_PER_STEP = 64;

    private final NativeEngine engine;

    /** What one table's DAG run did. */
    public record TableRun(TableId table, int stepsAttempted, int stepsCommitted, int stepsFailed, List<String> errors) {

        /**
         * For a DAG run that nothing else writes to at the same time: a failed step is a harness error, since
         * the contender did not do its work and its figures would be meaningless.
         */
        public TableRun requireAllSucceeded() {
            if (stepsFailed > 0) {
                throw new IllegalStateException("The scheduled DAG failed on " + table + ": " + String.join("; ", errors));
            }
            return this;
        }
    }

    public NativeDag(CatalogRegistry catalogs) {
        requireLoggingOutsideQuarkus();
        // the executor's defaults, one thread per processor included
        RewriteSettings rewrite = new RewriteSettings(0.75, 1.8, 20, 3,
                new Backoff(Duration.ofMillis(200), Duration.ofSeconds(5)), 0);
        this.engine = new NativeEngine(catalogs,
                new NativeEngineSettings(rewrite, Duration.ofDays(5), 1, OrphanRemovalSettings.DEFAULTS), JobRecords.NONE,
                Clock.systemUTC());
    }

    /** One DAG run over one table: optimize every partition, rewrite manifests, expire snapshots. */
    public TableRun run(TableId tableId) {
        String jobId = "dag-" + UUID.randomUUID();
        Table table = engine.load(tableId);
        List<StepRequest> steps = new ArrayList<>();
        List<PartitionPredicate> partitions = partitions(table);
        for (int start = 0, chunk = 0; start < partitions.size(); start += PARTITIONS_PER_STEP, chunk++) {
            steps.add(new StepRequest(tableId, jobId, StepKey.chunk(Operation.OPTIMIZE, chunk),
                    partitions.subList(start, Math.min(partitions.size(), start + PARTITIONS_PER_STEP)),
                    OperationParameters.NONE));
        }
        steps.add(new StepRequest(tableId, jobId, StepKey.table(Operation.OPTIMIZE_MANIFESTS), List.of(),
                OperationParameters.NONE));
        steps.add(new StepRequest(tableId, jobId, StepKey.table(Operation.EXPIRE_SNAPSHOTS), List.of(), EXPIRY));
        int committed = 0;
        int failed = 0;
        List<String> errors = new ArrayList<>();
        for (StepRequest step : steps) {
            try {
                StepResult result = engine.run(step);
                if (result.committedSnapshotId() != null) {
                    committed++;
                }
            } catch (RuntimeException e) {
                failed++;
                errors.add(step.step() + ": " + e.getMessage());
            }
        }
        return new TableRun(tableId, steps.size(), committed, failed, errors);
    }

    /**
     * Only the DAG's compaction: optimize every partition, in chunks of partitions as the executor receives them
     * (scenario 8 times this step alone against Trino's optimize and Spark's rewrite_data_files).
     */
    public TableRun optimize(TableId tableId) {
        String jobId = "optimize-" + UUID.randomUUID();
        List<PartitionPredicate> partitions = partitions(engine.load(tableId));
        int committed = 0;
        int failed = 0;
        List<String> errors = new ArrayList<>();
        int steps = 0;
        for (int start = 0, chunk = 0; start < partitions.size(); start += PARTITIONS_PER_STEP, chunk++) {
            StepRequest step = new StepRequest(tableId, jobId, StepKey.chunk(Operation.OPTIMIZE, chunk),
                    partitions.subList(start, Math.min(partitions.size(), start + PARTITIONS_PER_STEP)),
                    OperationParameters.NONE);
            steps++;
            try {
                StepResult result = engine.run(step);
                LOG.info("{} {}: {}", tableId, step.step(), result.message());
                if (result.committedSnapshotId() != null) {
                    committed++;
                }
            } catch (RuntimeException e) {
                failed++;
                errors.add(step.step() + ": " + e.getMessage());
            }
        }
        return new TableRun(tableId, steps, committed, failed, errors);
    }

    /**
     * NativeEngine logs through io.quarkus.logging.Log, whose calls Quarkus rewrites at build time. Outside a
     * Quarkus application Log falls back to JBoss Logging only when JUnit's Assertions class is on the class path
     * (Quarkus's rule for unit tests), which is why bench/pom.xml ships junit-jupiter-api at runtime; without it
     * every DAG step would throw and the contender would do nothing. Fail before measuring anything instead.
     */
    static void requireLoggingOutsideQuarkus() {
        try {
            io.quarkus.logging.Log.isEnabled(org.jboss.logging.Logger.Level.DEBUG);
        } catch (UnsupportedOperationException e) {
            throw new IllegalStateException("Cannot run the scheduled DAG in-process: io.quarkus.logging.Log refuses to "
                    + "log outside Quarkus (" + e.getMessage() + "); keep junit-jupiter-api on bench's runtime class path", e);
        }
    }

    /** One predicate per partition of the current snapshot's data files, every spec. */
    static List<PartitionPredicate> partitions(Table table) {
        Map<String, PartitionPredicate> partitions = new LinkedHashMap<>();
        if (table.currentSnapshot() == null) {
            return List.of();
        }
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            for (FileScanTask task : tasks) {
                PartitionSpec spec = table.specs().get(task.file().specId());
                if (spec.isUnpartitioned()) {
                    continue;
                }
                StructLike tuple = task.file().partition();
                List<FieldPredicate> fields = new ArrayList<>();
                StringBuilder key = new StringBuilder().append(spec.specId());
                for (int i = 0; i < spec.fields().size(); i++) {
                    PartitionField field = spec.fields().get(i);
                    Object value = tuple.get(i, Object.class);
                    var source = table.schema().findField(field.sourceId());
                    fields.add(new FieldPredicate(field.name(), source.name(), source.type().toString(),
                            field.transform().toString(), value == null ? null : value.toString(), null, null, null));
                    key.append('/').append(value);
                }
                partitions.putIfAbsent(key.toString(), new PartitionPredicate(spec.specId(), fields));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list the partitions of " + table.name() + ": " + e.getMessage(), e);
        }
        return List.copyOf(partitions.values());
    }
}
