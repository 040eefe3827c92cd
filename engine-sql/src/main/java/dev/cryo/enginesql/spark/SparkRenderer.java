package dev.cryo.enginesql.spark;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.Chunk;
import dev.cryo.contracts.event.PlannedOperation;
import dev.cryo.enginesql.Limitation;
import dev.cryo.enginesql.NotExpressibleException;
import dev.cryo.enginesql.Plans;
import dev.cryo.enginesql.Rendering;
import dev.cryo.enginesql.SqlRenderer;
import dev.cryo.enginesql.expression.PartitionField;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * Spark's statements: Iceberg's stored procedures, {@code CALL <catalog>.system.<procedure>(…)},
 * with named arguments. Partition operations pass their chunk as a {@code where} expression: an
 * OR over partitions, each an AND over its fields (identity values, half-open temporal ranges,
 * {@code <catalog>.system.bucket(N, column) = b}, {@code <catalog>.system.truncate(W, column) = v}).
 * That expression is itself Spark SQL inside a string literal, so it is escaped twice: once as
 * the expression's own literals, then as a whole.
 */
public final class SparkRenderer implements SqlRenderer {

    private static final DateTimeFormatter INSTANT = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSSSSS", Locale.ROOT);

    private final SparkSettings settings;

    public SparkRenderer(SparkSettings settings) {
        this.settings = requireNonNull(settings, "settings is null");
    }

    @Override
    public Engine engine() {
        return Engine.SPARK;
    }

    @Override
    public Rendering render(TableId table, PlannedOperation operation, Chunk chunk) {
        Plans.checkScope(table, operation, chunk);
        Operation op = operation.operation();
        try {
            String catalog = SparkDialect.identifier(settings.catalogNames().engineCatalog(table.catalog()), "catalog of " + table);
            Map<String, String> arguments = new LinkedHashMap<>();
            arguments.put("table", SparkDialect.string(tableName(table), "table name"));
            Long target = operation.parameters().targetFileSizeBytes();
            String procedure = switch (op) {
                case CONVERT_DELETES, OPTIMIZE -> {
                    where(catalog, chunk).ifPresent(where -> arguments.put("where", where));
                    arguments.put("options", map(rewriteDataFilesOptions(op, target)));
                    yield "rewrite_data_files";
                }
                case REWRITE_POSITION_DELETES -> {
                    where(catalog, chunk).ifPresent(where -> arguments.put("where", where));
                    Map<String, String> options = new LinkedHashMap<>();
                    options.put("rewrite-all", "true");
                    options.put("partial-progress.enabled", "true");
                    arguments.put("options", map(options));
                    yield "rewrite_position_delete_files";
                }
                case COMPUTE_STATISTICS -> "compute_table_stats";
                case OPTIMIZE_MANIFESTS -> "rewrite_manifests";
                case EXPIRE_SNAPSHOTS -> {
                    arguments.put("older_than", olderThan(Plans.secondsRoundedUp(Plans.snapshotRetention(table, operation))));
                    Integer retainLast = operation.parameters().retainLast();
                    if (retainLast != null) {
                        arguments.put("retain_last", Integer.toString(retainLast));
                    }
                    yield "expire_snapshots";
                }
                case REMOVE_ORPHAN_FILES -> {
                    arguments.put("older_than", olderThan(Plans.secondsRoundedUp(Plans.orphanAgeFloor(table, operation))));
                    if (settings.orphanRemoval() == SparkSettings.OrphanRemoval.DRY_RUN) {
                        arguments.put("dry_run", "true");
                    }
                    yield "remove_orphan_files";
                }
            };
            String call = "CALL " + catalog + ".system." + procedure + "(\n" + arguments.entrySet().stream()
                    .map(argument -> "  " + argument.getKey() + " => " + argument.getValue())
                    .collect(Collectors.joining(",\n")) + ")";
            return new Rendering.Statements(Engine.SPARK, op, List.of(call));
        } catch (NotExpressibleException e) {
            return new Rendering.NotExpressible(Engine.SPARK, op, e.limitation(), e.getMessage());
        }
    }

    /** {@code rewrite_data_files}'s options for a delete conversion or a compaction. */
    private static Map<String, String> rewriteDataFilesOptions(Operation op, Long target) {
        Map<String, String> options = new LinkedHashMap<>();
        if (op == Operation.CONVERT_DELETES) {
            // Every data file with a delete file is rewritten, applying its deletes.
            options.put("delete-file-threshold", "1");
            options.put("min-input-files", "1");
            // The rewrite leaves the equality delete files in the table, applying to no file
            // any more but still counted by the equality-deletes check: drop them too.
            options.put("remove-dangling-deletes", "true");
        } else {
            options.put("min-input-files", "2");
        }
        options.put("partial-progress.enabled", "true");
        // Rewritten files keep the starting sequence number, so concurrent deletes still apply.
        options.put("use-starting-sequence-number", "true");
        if (target != null) {
            options.put("target-file-size-bytes", Long.toString(target));
        }
        return options;
    }

    /** The table argument: a multi-part identifier that the procedure parses, relative to its catalog. */
    private static String tableName(TableId table) {
        List<String> parts = new ArrayList<>();
        table.namespace().forEach(level -> parts.add(SparkDialect.identifier(level, "namespace of " + table)));
        parts.add(SparkDialect.identifier(table.table(), "table name of " + table));
        return String.join(".", parts);
    }

    /** Instants count back from the clock, rounded down to the second: older means more is kept. */
    private String olderThan(long ageSeconds) {
        Instant instant = settings.clock().instant().truncatedTo(ChronoUnit.SECONDS).minusSeconds(ageSeconds);
        return "TIMESTAMP '" + INSTANT.format(instant.atOffset(ZoneOffset.UTC)) + "Z'";
    }

    private static String map(Map<String, String> options) {
        return "map(" + options.entrySet().stream()
                .map(option -> SparkDialect.string(option.getKey(), "option") + ", " + SparkDialect.string(option.getValue(), "option"))
                .collect(Collectors.joining(", ")) + ")";
    }

    /** The where argument, escaped as a string literal; empty for a whole unpartitioned table. */
    private static Optional<String> where(String catalog, Chunk chunk) {
        String expression = expression(catalog, chunk);
        return expression.isEmpty() ? Optional.empty()
                : Optional.of(SparkDialect.string(expression, "where expression"));
    }

    /** The chunk as a Spark SQL expression, before it is put in a string literal. */
    static String expression(String catalog, Chunk chunk) {
        List<List<PartitionField>> partitions = Plans.partitions(chunk);
        if (partitions.stream().anyMatch(List::isEmpty)) {
            // An unpartitioned spec: its files have no partition to select, so the whole table is rewritten.
            return "";
        }
        List<String> disjuncts = new ArrayList<>();
        for (List<PartitionField> partition : partitions) {
            List<String> conjuncts = new ArrayList<>();
            for (PartitionField field : partition) {
                conjuncts.add(condition(catalog, field));
            }
            disjuncts.add(String.join(" AND ", conjuncts));
        }
        if (disjuncts.size() == 1) {
            return disjuncts.get(0);
        }
        return disjuncts.stream().map(d -> "(" + d + ")").collect(Collectors.joining(" OR "));
    }

    private static String condition(String catalog, PartitionField field) {
        String column = SparkDialect.identifier(field.column(), "column of " + field.describe());
        if (field.isNullValue()) {
            return column + " IS NULL";
        }
        return switch (field.transform().kind()) {
            case IDENTITY -> column + " = " + SparkDialect.literal(field.value(), field.describe());
            case YEAR, MONTH, DAY, HOUR -> {
                if (!field.hasRange()) {
                    throw new NotExpressibleException(Limitation.TRANSFORM_NOT_ADDRESSABLE, "Cannot address "
                            + field.describe() + " on Spark: the plan gives no source range for it");
                }
                yield column + " >= " + SparkDialect.literal(field.lowerInclusive(), field.describe())
                        + " AND " + column + " < " + SparkDialect.literal(field.upperExclusive(), field.describe());
            }
            case BUCKET -> catalog + ".system.bucket(" + field.transform().parameter() + ", " + column + ") = "
                    + field.bucketNumber();
            case TRUNCATE -> catalog + ".system.truncate(" + field.transform().parameter() + ", " + column + ") = "
                    + SparkDialect.literal(field.value(), field.describe());
            case VOID, OTHER -> throw new NotExpressibleException(Limitation.TRANSFORM_NOT_ADDRESSABLE,
                    "Cannot address " + field.describe() + " on Spark: Cryo knows no predicate for this transform");
        };
    }

}
