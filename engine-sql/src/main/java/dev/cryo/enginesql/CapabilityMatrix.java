package dev.cryo.enginesql;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.Chunk;
import dev.cryo.contracts.event.PlannedOperation;
import dev.cryo.contracts.Transform;
import dev.cryo.enginesql.spark.SparkRenderer;
import dev.cryo.enginesql.spark.SparkSettings;
import dev.cryo.enginesql.trino.TrinoRenderer;
import dev.cryo.enginesql.trino.TrinoSettings;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * What each engine declares it can do: per operation, per partition transform, and per table
 * format version. The declaration is data, for the console and the README; the final word on one
 * operation and chunk is the engine's renderer ({@link #check}), which also sees source types,
 * specs and parameters (Trino has no {@code retain_last}).
 *
 * <p>Format version 3 gives every row a lineage ({@code _row_id},
 * {@code _last_updated_sequence_number}) that a maintenance operation must keep. An engine runs an
 * operation on a v3 table only where it was seen, on the real server, to run it and keep every
 * row's lineage; elsewhere the operation goes to the next engine before this one is asked, because
 * Cryo cannot undo an engine's commit:
 * <ul>
 *   <li>Trino 476 supports format versions 1 and 2: its optimize (so convert_deletes too),
 *       expire_snapshots and remove_orphan_files refuse a v3 table ("OPTIMIZE is not supported for
 *       Iceberg table format version > 2"), and it cannot read deletion vectors, so ANALYZE fails
 *       ("Unexpected PUFFIN file format"). Its optimize_manifests keeps lineage and stays.</li>
 *   <li>Spark 4.0.1 with Iceberg 1.10.1 keeps lineage in rewrite_data_files (optimize,
 *       convert_deletes) and rewrite_position_delete_files, but its rewrite_manifests drops the
 *       files' {@code first_row_id}, so the commit gives every row it moved a new {@code _row_id}
 *       (apache/iceberg#16699, fixed after 1.10).</li>
 * </ul>
 */
public final class CapabilityMatrix {

    private static final Set<Transform.Kind> ADDRESSABLE = EnumSet.of(Transform.Kind.IDENTITY, Transform.Kind.YEAR,
            Transform.Kind.MONTH, Transform.Kind.DAY, Transform.Kind.HOUR, Transform.Kind.BUCKET, Transform.Kind.TRUNCATE);

    /** The highest table format version an engine runs an operation on, and why not above it. */
    private record FormatLimit(int highestVersion, Limitation limitation, String reason) {
    }

    private final Map<Engine, Map<Operation, OperationCapability>> operations;
    private final Map<Engine, Map<Operation, FormatLimit>> formatLimits;
    private final Map<Engine, SqlRenderer> renderers;

    private CapabilityMatrix(Map<Engine, Map<Operation, OperationCapability>> operations,
                             Map<Engine, Map<Operation, FormatLimit>> formatLimits, Map<Engine, SqlRenderer> renderers) {
        this.operations = operations;
        this.formatLimits = formatLimits;
        this.renderers = renderers;
    }

    /** The three engines Cryo knows, with these renderers' settings. */
    public static CapabilityMatrix of(TrinoSettings trino, SparkSettings spark) {
        Map<Engine, Map<Operation, OperationCapability>> operations = new EnumMap<>(Engine.class);
        operations.put(Engine.NATIVE, nativeOperations());
        operations.put(Engine.TRINO, trinoOperations());
        operations.put(Engine.SPARK, sparkOperations());
        Map<Engine, SqlRenderer> renderers = new EnumMap<>(Engine.class);
        renderers.put(Engine.TRINO, new TrinoRenderer(trino));
        renderers.put(Engine.SPARK, new SparkRenderer(spark));
        return new CapabilityMatrix(operations, formatLimits(), renderers);
    }

    /** Every operation, through the Iceberg Java API inside the executor. */
    private static Map<Operation, OperationCapability> nativeOperations() {
        Map<Operation, OperationCapability> nativeEngine = new EnumMap<>(Operation.class);
        for (Operation operation : Operation.values()) {
            nativeEngine.put(operation, capability(Engine.NATIVE, operation, OperationCapability.Level.NATIVE_PROCEDURE,
                    "Iceberg Java API inside the executor"));
        }
        return nativeEngine;
    }

    private static Map<Operation, OperationCapability> trinoOperations() {
        Map<Operation, OperationCapability> trinoEngine = new EnumMap<>(Operation.class);
        trinoEngine.put(Operation.CONVERT_DELETES, capability(Engine.TRINO, Operation.CONVERT_DELETES,
                OperationCapability.Level.THROUGH_ANOTHER_PROCEDURE,
                "ALTER TABLE … EXECUTE optimize, on the whole of an unpartitioned table (Trino's optimize rewrites the data"
                        + " files and applies their deletes; with a partition filter Trino 476 keeps the equality delete files,"
                        + " so chunks of partitions go to the next engine)"));
        trinoEngine.put(Operation.REWRITE_POSITION_DELETES, capability(Engine.TRINO, Operation.REWRITE_POSITION_DELETES,
                OperationCapability.Level.NOT_AVAILABLE, "Trino has no procedure that rewrites position delete files"));
        trinoEngine.put(Operation.OPTIMIZE, capability(Engine.TRINO, Operation.OPTIMIZE,
                OperationCapability.Level.NATIVE_PROCEDURE, "ALTER TABLE … EXECUTE optimize(file_size_threshold => …) WHERE …"));
        trinoEngine.put(Operation.COMPUTE_STATISTICS, capability(Engine.TRINO, Operation.COMPUTE_STATISTICS,
                OperationCapability.Level.NATIVE_PROCEDURE, "ANALYZE"));
        trinoEngine.put(Operation.OPTIMIZE_MANIFESTS, capability(Engine.TRINO, Operation.OPTIMIZE_MANIFESTS,
                OperationCapability.Level.NATIVE_PROCEDURE, "ALTER TABLE … EXECUTE optimize_manifests"));
        trinoEngine.put(Operation.EXPIRE_SNAPSHOTS, capability(Engine.TRINO, Operation.EXPIRE_SNAPSHOTS,
                OperationCapability.Level.NATIVE_PROCEDURE,
                "ALTER TABLE … EXECUTE expire_snapshots(retention_threshold => …); no retain_last"));
        trinoEngine.put(Operation.REMOVE_ORPHAN_FILES, capability(Engine.TRINO, Operation.REMOVE_ORPHAN_FILES,
                OperationCapability.Level.NATIVE_PROCEDURE, "ALTER TABLE … EXECUTE remove_orphan_files(retention_threshold => …)"));
        return trinoEngine;
    }

    private static Map<Operation, OperationCapability> sparkOperations() {
        Map<Operation, OperationCapability> sparkEngine = new EnumMap<>(Operation.class);
        sparkEngine.put(Operation.CONVERT_DELETES, capability(Engine.SPARK, Operation.CONVERT_DELETES,
                OperationCapability.Level.THROUGH_ANOTHER_PROCEDURE,
                "CALL <catalog>.system.rewrite_data_files(…, options => map('delete-file-threshold', '1', …))"));
        sparkEngine.put(Operation.REWRITE_POSITION_DELETES, capability(Engine.SPARK, Operation.REWRITE_POSITION_DELETES,
                OperationCapability.Level.NATIVE_PROCEDURE, "CALL <catalog>.system.rewrite_position_delete_files"));
        sparkEngine.put(Operation.OPTIMIZE, capability(Engine.SPARK, Operation.OPTIMIZE,
                OperationCapability.Level.NATIVE_PROCEDURE, "CALL <catalog>.system.rewrite_data_files(table, where, options)"));
        sparkEngine.put(Operation.COMPUTE_STATISTICS, capability(Engine.SPARK, Operation.COMPUTE_STATISTICS,
                OperationCapability.Level.NATIVE_PROCEDURE, "CALL <catalog>.system.compute_table_stats"));
        sparkEngine.put(Operation.OPTIMIZE_MANIFESTS, capability(Engine.SPARK, Operation.OPTIMIZE_MANIFESTS,
                OperationCapability.Level.NATIVE_PROCEDURE, "CALL <catalog>.system.rewrite_manifests"));
        sparkEngine.put(Operation.EXPIRE_SNAPSHOTS, capability(Engine.SPARK, Operation.EXPIRE_SNAPSHOTS,
                OperationCapability.Level.NATIVE_PROCEDURE, "CALL <catalog>.system.expire_snapshots(older_than, retain_last)"));
        sparkEngine.put(Operation.REMOVE_ORPHAN_FILES, capability(Engine.SPARK, Operation.REMOVE_ORPHAN_FILES,
                OperationCapability.Level.NATIVE_PROCEDURE, "CALL <catalog>.system.remove_orphan_files(older_than)"));
        return sparkEngine;
    }

    /** The format versions an engine refuses, or would lose the rows' lineage in, per operation. */
    private static Map<Engine, Map<Operation, FormatLimit>> formatLimits() {
        Map<Engine, Map<Operation, FormatLimit>> formatLimits = new EnumMap<>(Engine.class);
        Map<Operation, FormatLimit> trinoLimits = new EnumMap<>(Operation.class);
        for (Operation operation : List.of(Operation.OPTIMIZE, Operation.CONVERT_DELETES)) {
            trinoLimits.put(operation, refusedByTrino("optimize", "OPTIMIZE"));
        }
        trinoLimits.put(Operation.EXPIRE_SNAPSHOTS, refusedByTrino("expire_snapshots", "EXPIRE_SNAPSHOTS"));
        trinoLimits.put(Operation.REMOVE_ORPHAN_FILES, refusedByTrino("remove_orphan_files", "REMOVE_ORPHAN_FILES"));
        trinoLimits.put(Operation.COMPUTE_STATISTICS, new FormatLimit(2, Limitation.FORMAT_VERSION_NOT_SUPPORTED,
                "Trino 476 cannot read the deletion vectors of format v3 tables (ANALYZE fails with \"Unexpected PUFFIN"
                        + " file format\")"));
        formatLimits.put(Engine.TRINO, trinoLimits);
        formatLimits.put(Engine.SPARK, new EnumMap<>(Map.of(Operation.OPTIMIZE_MANIFESTS, new FormatLimit(2,
                Limitation.LOSES_ROW_LINEAGE, "Spark's rewrite_manifests (Iceberg 1.10.1) gives the rows of a format v3"
                        + " table new _row_id values: it drops the data files' first_row_id (apache/iceberg#16699)"))));
        formatLimits.put(Engine.NATIVE, Map.of());
        return formatLimits;
    }

    private static FormatLimit refusedByTrino(String procedure, String trinoName) {
        return new FormatLimit(2, Limitation.FORMAT_VERSION_NOT_SUPPORTED, "Trino 476 refuses " + procedure
                + " on tables of format version 3 (\"" + trinoName + " is not supported for Iceberg table format version > 2\")");
    }

    public OperationCapability capability(Engine engine, Operation operation) {
        return operations.get(requireNonNull(engine, "engine is null")).get(requireNonNull(operation, "operation is null"));
    }

    /** Every declared capability, engine by engine, in the fixed operation order. */
    public List<OperationCapability> capabilities() {
        List<OperationCapability> all = new ArrayList<>();
        operations.values().forEach(byOperation -> all.addAll(byOperation.values()));
        return List.copyOf(all);
    }

    /**
     * The partition transforms whose partitions the engine can address exactly. Trino and Spark
     * address all seven (Trino through {@code "$partition"} for bucket and truncate); void and
     * unknown transforms are addressed by no SQL engine.
     */
    public Set<Transform.Kind> transforms(Engine engine) {
        requireNonNull(engine, "engine is null");
        return engine == Engine.NATIVE ? EnumSet.complementOf(EnumSet.of(Transform.Kind.OTHER)) : EnumSet.copyOf(ADDRESSABLE);
    }

    /**
     * Why the engine must not run the operation on a table of this format version, or empty when
     * it may: what the renderer alone cannot see, since a plan does not carry the format version.
     */
    public Optional<Support.NotSupported> formatVersionLimit(Engine engine, Operation operation, int formatVersion) {
        requireNonNull(operation, "operation is null");
        FormatLimit limit = formatLimits.get(requireNonNull(engine, "engine is null")).get(operation);
        if (limit == null || formatVersion <= limit.highestVersion()) {
            return Optional.empty();
        }
        return Optional.of(new Support.NotSupported(engine, limit.limitation(), limit.reason()));
    }

    /**
     * Whether the engine can run this operation and chunk on a table of this format version; for
     * SQL engines, decided by the format limits and then by rendering it.
     */
    public Support check(Engine engine, TableId table, int formatVersion, PlannedOperation operation, Chunk chunk) {
        OperationCapability declared = capability(engine, operation.operation());
        if (!declared.isAvailable()) {
            return new Support.NotSupported(engine, Limitation.OPERATION_NOT_AVAILABLE, declared.how());
        }
        Optional<Support.NotSupported> limited = formatVersionLimit(engine, operation.operation(), formatVersion);
        if (limited.isPresent()) {
            return limited.get();
        }
        if (engine == Engine.NATIVE) {
            return new Support.Supported(engine, declared.how(), List.of());
        }
        Rendering rendering = renderers.get(engine).render(table, operation, chunk);
        if (rendering instanceof Rendering.NotExpressible not) {
            return new Support.NotSupported(engine, not.limitation(), not.reason());
        }
        return new Support.Supported(engine, declared.how(), ((Rendering.Statements) rendering).statements());
    }

    private static OperationCapability capability(Engine engine, Operation operation, OperationCapability.Level level, String how) {
        return new OperationCapability(engine, operation, level, how);
    }
}
