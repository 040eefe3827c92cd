package dev.cryo.scorer.persistence;

import dev.cryo.contracts.Grade;
import dev.cryo.contracts.TableId;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The current grades of every table, filtered, sorted and paged: what the tables listing and the gauges read. */
@ApplicationScoped
public class CurrentGrades {

    private final AgroalDataSource dataSource;

    CurrentGrades(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Current grades matching a query, and how many match in all. */
    public Page list(TableQuery query) {
        StringBuilder where = new StringBuilder(" WHERE TRUE");
        List<Object> parameters = new ArrayList<>();
        if (!query.grades().isEmpty()) {
            where.append(" AND grade IN (").append(String.join(", ", Collections.nCopies(query.grades().size(), "?")))
                    .append(')');
            query.grades().forEach(grade -> parameters.add(grade.name()));
        }
        if (query.catalog() != null) {
            where.append(" AND catalog = ?");
            parameters.add(query.catalog());
        }
        if (query.namespace() != null) {
            where.append(" AND namespace = ?");
            parameters.add(query.namespace());
        }
        String column = switch (query.sort()) {
            case SCORE -> "score";
            case TABLE -> "table_id";
            case GRADED_AT -> "graded_at";
        };
        String direction = query.direction() == TableQuery.Direction.ASC ? "ASC" : "DESC";
        try (Connection connection = dataSource.getConnection()) {
            long total;
            try (PreparedStatement count = connection.prepareStatement("SELECT count(*) FROM table_grade" + where)) {
                bind(count, parameters);
                try (ResultSet rows = count.executeQuery()) {
                    rows.next();
                    total = rows.getLong(1);
                }
            }
            List<CurrentRow> tables = new ArrayList<>();
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT table_id, scan_id, snapshot_id, scanned_at, graded_at, score, grade, deductions FROM table_grade"
                            + where + " ORDER BY " + column + " " + direction + ", table_id " + direction
                            + " LIMIT ? OFFSET ?")) {
                List<Object> all = new ArrayList<>(parameters);
                all.add(query.limit());
                all.add(query.offset());
                bind(select, all);
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        tables.add(currentRow(rows));
                    }
                }
            }
            return new Page(total, tables);
        } catch (SQLException e) {
            throw GradeStore.unavailable("list table grades", e);
        }
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

    private static CurrentRow currentRow(ResultSet rows) throws SQLException {
        long snapshotId = rows.getLong(3);
        return new CurrentRow(TableId.parse(rows.getString(1)), rows.getString(2), rows.wasNull() ? null : snapshotId,
                rows.getTimestamp(4).toInstant(), rows.getTimestamp(5).toInstant(), rows.getInt(6),
                Grade.valueOf(rows.getString(7)), GradeStore.parse(rows.getString(8), GradeStore.DEDUCTIONS));
    }

    private static void bind(PreparedStatement statement, List<Object> parameters) throws SQLException {
        for (int i = 0; i < parameters.size(); i++) {
            statement.setObject(i + 1, parameters.get(i));
        }
    }
}
