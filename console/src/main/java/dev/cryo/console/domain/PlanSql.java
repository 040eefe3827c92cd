package dev.cryo.console.domain;

import dev.cryo.contracts.Check;
import dev.cryo.contracts.Engine;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.event.Chunk;
import dev.cryo.contracts.event.Estimate;
import dev.cryo.contracts.event.FieldPredicate;
import dev.cryo.contracts.event.MaintenancePlanned;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.contracts.event.PartitionPredicate;
import dev.cryo.contracts.event.PlannedOperation;
import dev.cryo.enginesql.Rendering;
import dev.cryo.enginesql.SqlRenderer;
import dev.cryo.enginesql.expression.CannotRenderException;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * A plan as the table page shows it: each operation with its reasons and estimate, each chunk with its
 * partitions, and the statements that Trino and Spark would run for it, rendered by engine-sql's
 * renderers (the same code the executor runs them with).
 *
 * @param operations the operations in the plan's fixed order
 * @param hiddenChunks chunks left out because an operation had more than {@link #MAX_CHUNKS_SHOWN}
 */
public record PlanSql(List<OperationSql> operations, int hiddenChunks) {

    /** Chunks of one operation the page renders; a plan may hold hundreds. */
    public static final int MAX_CHUNKS_SHOWN = 12;
    /** Partitions of one chunk the page names. */
    public static final int MAX_PARTITIONS_NAMED = 8;

    /** One operation and where its statements come from. */
    public record OperationSql(Operation operation, List<Check> reasons, String parameters, Estimate estimate,
                               List<Statements> tableStatements, List<ChunkSql> chunks, int chunkCount) {
        public OperationSql {
            reasons = List.copyOf(reasons);
            tableStatements = List.copyOf(tableStatements);
            chunks = List.copyOf(chunks);
        }

        public boolean partitioned() {
            return operation.scope() == Operation.Scope.PARTITIONS;
        }

        public String reasonsText() {
            return reasons.stream().map(Check::id).collect(Collectors.joining(", "));
        }
    }

    /** One chunk: its partitions, estimate and each engine's statements. */
    public record ChunkSql(int index, List<String> partitions, int morePartitions, Estimate estimate,
                           List<Statements> statements) {
        public ChunkSql {
            partitions = List.copyOf(partitions);
            statements = List.copyOf(statements);
        }
    }

    /**
     * What one engine would run: statements, or why it cannot (the executor then routes the work to
     * the next engine of the table's policy).
     */
    public record Statements(Engine engine, List<String> sql, String unavailable) {
        public Statements {
            requireNonNull(engine, "engine is null");
            sql = List.copyOf(sql);
        }

        public boolean available() {
            return unavailable == null;
        }

        /** The statements as one text block, each ending with a semicolon. */
        public String text() {
            return sql.stream().map(statement -> statement + ";").collect(Collectors.joining("\n"));
        }
    }

    public PlanSql {
        operations = List.copyOf(operations);
    }

    /** Renders every operation (and its first chunks) with each renderer, in the given engine order. */
    public static PlanSql of(MaintenancePlanned plan, List<SqlRenderer> renderers) {
        List<OperationSql> operations = new ArrayList<>();
        int hidden = 0;
        for (PlannedOperation operation : plan.operations()) {
            List<ChunkSql> chunks = new ArrayList<>();
            List<Statements> table = List.of();
            if (operation.operation().scope() == Operation.Scope.TABLE) {
                table = render(renderers, plan, operation, null);
            } else {
                List<Chunk> shown = operation.chunks().stream().limit(MAX_CHUNKS_SHOWN).toList();
                hidden += operation.chunks().size() - shown.size();
                for (Chunk chunk : shown) {
                    List<String> names = chunk.partitions().stream().limit(MAX_PARTITIONS_NAMED)
                            .map(PlanSql::partition).toList();
                    chunks.add(new ChunkSql(chunk.index(), names, chunk.partitions().size() - names.size(),
                            chunk.estimate(), render(renderers, plan, operation, chunk)));
                }
            }
            operations.add(new OperationSql(operation.operation(), operation.reasons(),
                    parameters(operation.parameters()), operation.estimate(), table, chunks, operation.chunks().size()));
        }
        return new PlanSql(operations, hidden);
    }

    /** A partition as people read it: {@code event_ts_day = 2026-11-28}, {@code whole table}. */
    static String partition(PartitionPredicate partition) {
        if (partition.fields().isEmpty()) {
            return "whole table (spec " + partition.specId() + ")";
        }
        return partition.fields().stream().map(PlanSql::field).collect(Collectors.joining(", "))
                + (partition.specId() == 0 ? "" : " (spec " + partition.specId() + ")");
    }

    private static String field(FieldPredicate field) {
        String value = field.humanValue() != null ? field.humanValue()
                : PartitionLabels.label(field.transform(), field.value());
        return field.field() + " = " + value;
    }

    private static List<Statements> render(List<SqlRenderer> renderers, MaintenancePlanned plan,
                                           PlannedOperation operation, Chunk chunk) {
        List<Statements> statements = new ArrayList<>();
        for (SqlRenderer renderer : renderers) {
            try {
                Rendering rendering = renderer.render(plan.table(), operation, chunk);
                if (rendering instanceof Rendering.Statements sql) {
                    statements.add(new Statements(renderer.engine(), sql.statements(), null));
                } else if (rendering instanceof Rendering.NotExpressible not) {
                    statements.add(new Statements(renderer.engine(), List.of(), not.reason()));
                }
            } catch (CannotRenderException e) {
                statements.add(new Statements(renderer.engine(), List.of(), e.getMessage()));
            }
        }
        return statements;
    }

    private static String parameters(OperationParameters parameters) {
        List<String> parts = new ArrayList<>();
        if (parameters.targetFileSizeBytes() != null) {
            parts.add("target file size " + Formats.bytes(parameters.targetFileSizeBytes()));
        }
        if (parameters.snapshotRetention() != null) {
            parts.add("keep snapshots younger than " + Formats.age(parameters.snapshotRetention()));
        }
        if (parameters.retainLast() != null) {
            parts.add("always keep the last " + parameters.retainLast());
        }
        if (parameters.orphanAgeFloor() != null) {
            parts.add("orphans older than " + Formats.age(parameters.orphanAgeFloor()));
        }
        return String.join(", ", parts);
    }
}
