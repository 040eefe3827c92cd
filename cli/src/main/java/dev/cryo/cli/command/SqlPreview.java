package dev.cryo.cli.command;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.Chunk;
import dev.cryo.contracts.event.FieldPredicate;
import dev.cryo.contracts.event.PartitionPredicate;
import dev.cryo.contracts.event.PlannedOperation;
import dev.cryo.enginesql.CatalogNames;
import dev.cryo.enginesql.Rendering;
import dev.cryo.enginesql.SqlRenderer;
import dev.cryo.enginesql.expression.CannotRenderException;
import dev.cryo.enginesql.spark.SparkRenderer;
import dev.cryo.enginesql.spark.SparkSettings;
import dev.cryo.enginesql.trino.TrinoRenderer;
import dev.cryo.enginesql.trino.TrinoSettings;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * What an engine would run for each step of a plan: one step per chunk of a partition
 * operation, one per whole-table operation. Trino and Spark get their SQL from engine-sql's
 * renderers (the executor's own); the native engine runs the Iceberg Java API and has no SQL.
 */
final class SqlPreview {

    /**
     * One step of a plan on one engine.
     *
     * @param operation the operation id
     * @param chunk the chunk index (null for whole-table operations)
     * @param partitions the chunk's partitions, readable ({@code [spec 0] event_ts_day=2026-11-28})
     * @param engine the engine
     * @param statements the SQL, in order (empty when the engine cannot, or has no SQL)
     * @param note why there is no SQL: the engine cannot run it, or runs it natively
     */
    record Step(String operation, Integer chunk, List<String> partitions, String engine, List<String> statements,
                String note) {
        Step {
            partitions = List.copyOf(partitions);
            statements = List.copyOf(statements);
        }
    }

    private final Clock clock;

    SqlPreview(Clock clock) {
        this.clock = requireNonNull(clock, "clock is null");
    }

    List<Step> steps(TableId table, List<PlannedOperation> operations, Engine engine) {
        SqlRenderer renderer = switch (engine) {
            case TRINO -> new TrinoRenderer(TrinoSettings.DEFAULT);
            case SPARK -> new SparkRenderer(new SparkSettings(CatalogNames.SAME, clock));
            case NATIVE -> null;
        };
        List<Step> steps = new ArrayList<>();
        for (PlannedOperation operation : operations) {
            if (operation.chunks().isEmpty()) {
                steps.add(step(renderer, table, operation, null, engine));
            } else {
                operation.chunks().forEach(chunk -> steps.add(step(renderer, table, operation, chunk, engine)));
            }
        }
        return steps;
    }

    private static Step step(SqlRenderer renderer, TableId table, PlannedOperation operation, Chunk chunk, Engine engine) {
        List<String> partitions = chunk == null ? List.of() : chunk.partitions().stream().map(SqlPreview::partition).toList();
        Integer index = chunk == null ? null : chunk.index();
        if (renderer == null) {
            return new Step(operation.operation().id(), index, partitions, engine.id(), List.of(),
                    "native: runs in the executor through the Iceberg Java API, no SQL");
        }
        try {
            Rendering rendering = renderer.render(table, operation, chunk);
            if (rendering instanceof Rendering.Statements statements) {
                return new Step(operation.operation().id(), index, partitions, engine.id(), statements.statements(), null);
            }
            Rendering.NotExpressible cannot = (Rendering.NotExpressible) rendering;
            return new Step(operation.operation().id(), index, partitions, engine.id(), List.of(),
                    engine.id() + " cannot run this (" + cannot.limitation() + "): " + cannot.reason()
                            + "; the executor routes it to the next engine of the table's policy");
        } catch (CannotRenderException e) {
            return new Step(operation.operation().id(), index, partitions, engine.id(), List.of(),
                    "refused to render: " + e.getMessage());
        }
    }

    /** {@code [spec 1] event_ts_hour=2026-11-29-10}: the partition as people read it. */
    static String partition(PartitionPredicate predicate) {
        String fields = predicate.fields().stream().map(SqlPreview::field).collect(Collectors.joining("/"));
        return "[spec " + predicate.specId() + "] " + (fields.isEmpty() ? "(unpartitioned)" : fields);
    }

    private static String field(FieldPredicate field) {
        String value = field.humanValue() != null ? field.humanValue() : field.value() == null ? "null" : field.value();
        return field.field() + "=" + value;
    }
}
