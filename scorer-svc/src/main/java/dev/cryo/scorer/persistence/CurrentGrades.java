package dev.cryo.scorer.persistence;

import dev.cryo.contracts.Grade;
import dev.cryo.contracts.TableId;
import dev.cryo.platform.error.CommonErrorCode;
import dev.cryo.platform.persistence.EntityTransactions;
import io.quarkus.hibernate.orm.panache.PanacheQuery;
import io.quarkus.panache.common.Parameters;
import io.quarkus.panache.common.Sort;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.ArrayList;
import java.util.List;

/** The current grades of every table, filtered, sorted and paged: what the tables listing and the gauges read. */
@ApplicationScoped
public class CurrentGrades {

    /** Current grades matching a query, and how many match in all. */
    public Page list(TableQuery query) {
        List<String> conditions = new ArrayList<>();
        Parameters parameters = new Parameters();
        if (!query.grades().isEmpty()) {
            conditions.add("grade in :grades");
            parameters.and("grades", query.grades().stream().map(Grade::name).toList());
        }
        if (query.catalog() != null) {
            conditions.add("catalog = :catalog");
            parameters.and("catalog", query.catalog());
        }
        if (query.namespace() != null) {
            conditions.add("namespace = :namespace");
            parameters.and("namespace", query.namespace());
        }
        String column = switch (query.sort()) {
            case SCORE -> "score";
            case TABLE -> "tableId";
            case GRADED_AT -> "gradedAt";
        };
        Sort.Direction direction = query.direction() == TableQuery.Direction.ASC ? Sort.Direction.Ascending
                : Sort.Direction.Descending;
        // ties broken by table id, in the same direction
        Sort order = column.equals("tableId") ? Sort.by(column, direction) : Sort.by(column, direction).and("tableId", direction);
        return EntityTransactions.call(CommonErrorCode.DEPENDENCY_UNAVAILABLE, "list table grades", () -> {
            PanacheQuery<TableGradeEntity> rows = TableGradeEntity.find(String.join(" and ", conditions), order, parameters);
            // range's ends are inclusive: the gauges' "all" must not overflow its count
            long last = Math.min((long) query.offset() + query.limit() - 1, Integer.MAX_VALUE - 1);
            List<CurrentRow> tables = rows.range(query.offset(), (int) last).list().stream()
                    .map(CurrentGrades::currentRow).toList();
            return new Page(rows.count(), tables);
        });
    }

    /** Every table's current grade (for the gauges). */
    public List<CurrentRow> allCurrent() {
        return list(new TableQuery(List.of(), null, null, TableQuery.Sort.TABLE, TableQuery.Direction.ASC,
                Integer.MAX_VALUE, 0)).tables();
    }

    /** A page of current grades. */
    public record Page(long total, List<CurrentRow> tables) {
        public Page {
            tables = List.copyOf(tables);
        }
    }

    private static CurrentRow currentRow(TableGradeEntity row) {
        return new CurrentRow(TableId.parse(row.tableId), row.scanId, row.snapshotId, row.scannedAt, row.gradedAt, row.score,
                Grade.valueOf(row.grade), GradeStore.parse(row.deductions, GradeStore.DEDUCTIONS));
    }
}
