package dev.cryo.console.domain;

import dev.cryo.console.client.ScannerApi.ScannedTable;
import dev.cryo.console.client.ScorerApi.GradedTable;
import dev.cryo.contracts.Grade;
import dev.cryo.contracts.TableId;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The fleet: every table that the scorer graded or the scanner knows, one row each. */
public final class Fleet {

    /**
     * Joins the scorer's grades with the scanner's tables. A table the scanner knows but the scorer has
     * not graded yet is listed without a grade; a graded table the scanner does not list keeps its grade.
     */
    public static List<FleetRow> rows(List<GradedTable> graded, List<ScannedTable> scanned) {
        Map<String, FleetRow> rows = new LinkedHashMap<>();
        for (GradedTable table : graded) {
            rows.put(table.table(), new FleetRow(table.table(), table.catalog(), table.namespace(), table.grade(),
                    table.score(), table.topDeduction(), table.gradedAt(), table.scannedAt(), null, false, null, null,
                    null));
        }
        for (ScannedTable table : scanned) {
            FleetRow known = rows.get(table.table());
            if (known == null) {
                String[] parts = split(table.table());
                rows.put(table.table(), new FleetRow(table.table(), parts[0], parts[1], null, null, null, null,
                        table.lastScannedAt(), table.lastScanSource(), table.pending(), table.lastError(), null, null));
            } else {
                rows.put(table.table(), new FleetRow(known.table(), known.catalog(), known.namespace(), known.grade(),
                        known.score(), known.topDeduction(), known.gradedAt(),
                        table.lastScannedAt() != null ? table.lastScannedAt() : known.lastChangeAt(),
                        table.lastScanSource(), table.pending(), table.lastError(), null, null));
            }
        }
        return new ArrayList<>(rows.values());
    }

    /** Tables per grade, every grade present (zero when none), for the fleet's summary bar. */
    public static Map<Grade, Long> countByGrade(List<FleetRow> rows) {
        Map<Grade, Long> counts = new EnumMap<>(Grade.class);
        for (Grade grade : Grade.values()) {
            counts.put(grade, 0L);
        }
        rows.stream().filter(FleetRow::graded).forEach(row -> counts.merge(row.grade(), 1L, Long::sum));
        return counts;
    }

    /** The distinct catalogs and namespaces of the rows, sorted, for the filter's choices. */
    public static List<String> catalogs(List<FleetRow> rows) {
        return rows.stream().map(FleetRow::catalog).distinct().sorted().toList();
    }

    public static List<String> namespaces(List<FleetRow> rows) {
        return rows.stream().map(FleetRow::namespace).distinct().sorted().toList();
    }

    /** Catalog and namespace of a table id; a malformed id (not Cryo's) keeps its text as the catalog. */
    private static String[] split(String table) {
        try {
            TableId id = TableId.parse(table);
            return new String[] {id.catalog(), id.namespaceName()};
        } catch (IllegalArgumentException e) {
            return new String[] {table, ""};
        }
    }

    private Fleet() {
    }
}
