package dev.cryo.enginesql.trino;

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
import dev.cryo.enginesql.expression.Sql;
import dev.cryo.contracts.Transform;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * Trino's statements: {@code ALTER TABLE … EXECUTE optimize(file_size_threshold => …) WHERE …}
 * for optimize and convert_deletes (Trino's optimize applies deletes), {@code ANALYZE},
 * {@code optimize_manifests}, {@code expire_snapshots} and {@code remove_orphan_files} with
 * retention thresholds (and, for the last two, the session's minimum retention set to the same
 * threshold, so the catalog's own floor stays in place for everyone else). Trino has no procedure for rewrite_position_deletes and no
 * {@code retain_last}: those come back as {@link Rendering.NotExpressible}.
 */
public final class TrinoRenderer implements SqlRenderer {

    private final TrinoSettings settings;

    public TrinoRenderer(TrinoSettings settings) {
        this.settings = requireNonNull(settings, "settings is null");
    }

    @Override
    public Engine engine() {
        return Engine.TRINO;
    }

    @Override
    public Rendering render(TableId table, PlannedOperation operation, Chunk chunk) {
        Plans.checkScope(table, operation, chunk);
        Operation op = operation.operation();
        try {
            String name = tableName(table);
            List<String> statements = switch (op) {
                case CONVERT_DELETES -> convertDeletes(catalog(table), name, operation, chunk);
                case OPTIMIZE -> optimize(catalog(table), name, operation, chunk);
                case REWRITE_POSITION_DELETES -> throw new NotExpressibleException(Limitation.OPERATION_NOT_AVAILABLE,
                        "Trino has no procedure that rewrites position delete files (its optimize rewrites the data "
                                + "files and applies their deletes instead)");
                case COMPUTE_STATISTICS -> List.of("ANALYZE " + name);
                case OPTIMIZE_MANIFESTS -> List.of("ALTER TABLE " + name + " EXECUTE optimize_manifests");
                case EXPIRE_SNAPSHOTS -> expireSnapshots(table, name, operation);
                case REMOVE_ORPHAN_FILES -> {
                    long floor = Plans.secondsRoundedUp(Plans.orphanAgeFloor(table, operation));
                    yield List.of(minRetention(catalog(table), "remove_orphan_files_min_retention", floor),
                            "ALTER TABLE " + name + " EXECUTE remove_orphan_files(retention_threshold => '" + floor + "s')");
                }
            };
            return new Rendering.Statements(Engine.TRINO, op, statements);
        } catch (NotExpressibleException e) {
            return new Rendering.NotExpressible(Engine.TRINO, op, e.limitation(), e.getMessage());
        }
    }

    private String tableName(TableId table) {
        if (table.namespace().size() != 1) {
            throw new NotExpressibleException(Limitation.TABLE_NAME_NOT_SUPPORTED, "Cannot name " + table
                    + " on Trino: Trino addresses tables as catalog.schema.table, and this namespace has "
                    + table.namespace().size() + " levels");
        }
        // Trino folds every schema and table name to lower case, quoted or not, and then looks that name
        // up in the catalog: a name with an upper-case letter is not found (TABLE_NOT_FOUND), every time.
        for (String part : List.of(table.namespace().get(0), table.table())) {
            if (!part.equals(part.toLowerCase(Locale.ROOT))) {
                throw new NotExpressibleException(Limitation.TABLE_NAME_NOT_SUPPORTED, "Cannot name " + table
                        + " on Trino: Trino folds schema and table names to lower case, so '" + part
                        + "' would be looked up as '" + part.toLowerCase(Locale.ROOT) + "' and not found");
            }
        }
        return catalog(table) + "." + TrinoDialect.identifier(table.namespace().get(0), "schema of " + table)
                + "." + TrinoDialect.identifier(table.table(), "table name of " + table);
    }

    private String catalog(TableId table) {
        return TrinoDialect.identifier(settings.catalogNames().engineCatalog(table.catalog()), "catalog of " + table);
    }

    private List<String> expireSnapshots(TableId table, String name, PlannedOperation operation) {
        Integer retainLast = operation.parameters().retainLast();
        if (retainLast != null && retainLast > 1) {
            throw new NotExpressibleException(Limitation.PARAMETER_NOT_AVAILABLE, "Cannot keep the last " + retainLast
                    + " snapshots on Trino: its expire_snapshots has no retain_last (it keeps only the current snapshot)");
        }
        long retention = Plans.secondsRoundedUp(Plans.snapshotRetention(table, operation));
        return List.of(minRetention(catalog(table), "expire_snapshots_min_retention", retention),
                "ALTER TABLE " + name + " EXECUTE expire_snapshots(retention_threshold => '" + retention + "s')");
    }

    /**
     * Trino refuses a threshold under the catalog's floor ({@code iceberg.expire-snapshots.min-retention},
     * {@code iceberg.remove-orphan-files.min-retention}, 7 days by default). Cryo sets the floor to its
     * own threshold for its session only: the catalog's floors keep protecting everyone else who runs
     * these procedures, and Cryo's own floors were checked before the statement was rendered.
     */
    private static String minRetention(String catalog, String property, long seconds) {
        return "SET SESSION " + catalog + "." + property + " = '" + seconds + "s'";
    }

    /**
     * Trino 476 removes the equality delete files of the files it rewrites only when it optimizes
     * the whole table: with a partition filter they stay in the table, no longer applying to the
     * new files, and the table keeps the deduction convert_deletes is planned to clear (fixed in
     * later Trino releases, trinodb/trino#28371). A chunk of partitions therefore goes to the next
     * engine of the policy; the whole of an unpartitioned table stays on Trino.
     */
    private List<String> convertDeletes(String catalog, String name, PlannedOperation operation, Chunk chunk) {
        if (!Plans.isWholeUnpartitionedTable(chunk)) {
            throw new NotExpressibleException(Limitation.LEAVES_DELETE_FILES, "Trino's optimize with a partition filter"
                    + " rewrites the data files but keeps their equality delete files in the table (Trino 476 removes them"
                    + " only when it optimizes the whole table)");
        }
        return optimize(catalog, name, operation, chunk);
    }

    private List<String> optimize(String catalog, String name, PlannedOperation operation, Chunk chunk) {
        List<String> statements = new ArrayList<>();
        Long target = operation.parameters().targetFileSizeBytes();
        String call = "ALTER TABLE " + name + " EXECUTE optimize";
        if (target != null) {
            // The output size is a session property. The threshold picks files below 75 % of the
            // target, as Spark's min-file-size-bytes does, so files near the target stay as they are.
            statements.add("SET SESSION " + catalog + ".target_max_file_size = '" + target + "B'");
            call += "(file_size_threshold => '" + (target / 4 * 3) + "B')";
        }
        String where = where(chunk);
        statements.add(where.isEmpty() ? call : call + "\nWHERE " + where);
        return statements;
    }

    /** The WHERE clause of one chunk, empty for the whole of an unpartitioned table. */
    String where(Chunk chunk) {
        if (Plans.isWholeUnpartitionedTable(chunk)) {
            return "";
        }
        List<List<PartitionField>> partitions = Plans.partitions(chunk);
        if (settings.predicateForm() == TrinoSettings.PredicateForm.COLUMNS_WHERE_EXACT && isOneDomainPerColumn(chunk, partitions)) {
            try {
                List<String> disjuncts = new ArrayList<>();
                for (List<PartitionField> partition : partitions) {
                    disjuncts.add(columnConjunction(partition));
                }
                if (disjuncts.size() == 1) {
                    return disjuncts.get(0);
                }
                return disjuncts.stream().map(d -> "(" + d + ")").collect(Collectors.joining("\n   OR "));
            } catch (NotExpressibleException e) {
                // A value without a column literal (NaN): the partition path still addresses it.
            }
        }
        List<String> paths = new ArrayList<>();
        for (List<PartitionField> partition : partitions) {
            paths.add(TrinoDialect.string(TrinoPartitionPaths.path(partition), "partition path"));
        }
        return "\"$partition\" IN (" + String.join(", ", paths) + ")";
    }

    /**
     * Trino enforces a predicate only when it becomes one domain per column: one partition (an
     * AND of its fields), or several single-field partitions on the same column. An OR across
     * columns, and bucket or truncate fields, leave a filter that optimize refuses.
     */
    private static boolean isOneDomainPerColumn(Chunk chunk, List<List<PartitionField>> partitions) {
        Set<Integer> specs = chunk.partitions().stream().map(p -> p.specId()).collect(Collectors.toSet());
        if (specs.size() != 1) {
            return false;
        }
        boolean everyFieldHasColumnForm = partitions.stream().flatMap(List::stream).allMatch(TrinoRenderer::hasColumnForm);
        if (!everyFieldHasColumnForm || partitions.stream().anyMatch(List::isEmpty)) {
            return false;
        }
        if (partitions.size() == 1) {
            return true;
        }
        Set<String> columns = partitions.stream().flatMap(List::stream).map(PartitionField::column).collect(Collectors.toSet());
        return columns.size() == 1 && partitions.stream().allMatch(partition -> partition.size() == 1);
    }

    private static boolean hasColumnForm(PartitionField field) {
        return switch (field.transform().kind()) {
            case IDENTITY -> true;
            case YEAR, MONTH, DAY, HOUR -> field.isNullValue() || field.hasRange();
            default -> false;
        };
    }

    private static String columnConjunction(List<PartitionField> partition) {
        List<String> conjuncts = new ArrayList<>();
        for (PartitionField field : partition) {
            String column = TrinoDialect.identifier(field.column(), "column of " + field.describe());
            if (field.isNullValue()) {
                conjuncts.add(column + " IS NULL");
            } else if (field.transform().kind() == Transform.Kind.IDENTITY) {
                conjuncts.add(column + " = " + TrinoDialect.literal(field.value(), field.describe()));
            } else {
                conjuncts.add(column + " >= " + TrinoDialect.literal(field.lowerInclusive(), field.describe())
                        + " AND " + column + " < " + TrinoDialect.literal(field.upperExclusive(), field.describe()));
            }
        }
        return String.join(" AND ", conjuncts);
    }

    @Override
    public String toString() {
        return "TrinoRenderer[" + Sql.printable(settings.toString()) + "]";
    }
}
