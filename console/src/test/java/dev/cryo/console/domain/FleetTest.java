package dev.cryo.console.domain;

import dev.cryo.console.client.ScannerApi.ScannedTable;
import dev.cryo.console.client.ScorerApi.GradedTable;
import dev.cryo.contracts.Check;
import dev.cryo.contracts.Grade;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.Severity;
import dev.cryo.contracts.event.Deduction;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class FleetTest {

    private static final Instant GRADED = Instant.parse("2026-11-29T10:00:00Z");
    private static final Instant SCANNED = Instant.parse("2026-11-29T10:05:00Z");

    @Test
    void gradesAndScansJoinIntoOneRowPerTable() {
        Deduction small = new Deduction(Check.SMALL_FILES, Severity.CRITICAL, 20, 0.8, 0.5, "share", Operation.OPTIMIZE,
                "80 % of data files are under 128 MiB (limit 50 %)");
        List<FleetRow> rows = Fleet.rows(
                List.of(new GradedTable("lake.sales.orders", "lake", "sales", Grade.C, 72, small, "scan-1", 5L,
                                GRADED.minusSeconds(1), GRADED),
                        new GradedTable("lake.old.gone", "lake", "old", Grade.A, 100, null, "scan-2", 6L, GRADED, GRADED)),
                List.of(new ScannedTable("lake.sales.orders", SCANNED, "commit-report", 7L, true, null, null, null),
                        new ScannedTable("lake.a.b.fresh", SCANNED, "watcher", 1L, false, "Cannot read metadata", SCANNED,
                                null)));

        assertThat(rows).hasSize(3);
        FleetRow orders = rows.get(0);
        assertThat(orders.grade()).isEqualTo(Grade.C);
        assertThat(orders.topDeduction()).isEqualTo(small);
        assertThat(orders.lastChangeAt()).isEqualTo(SCANNED);
        assertThat(orders.lastChangeSource()).isEqualTo("commit-report");
        assertThat(orders.scanPending()).isTrue();

        FleetRow gone = rows.get(1);
        assertThat(gone.lastChangeAt()).isEqualTo(GRADED);
        assertThat(gone.lastChangeSource()).isNull();

        FleetRow fresh = rows.get(2);
        assertThat(fresh.graded()).isFalse();
        assertThat(fresh.catalog()).isEqualTo("lake");
        assertThat(fresh.namespace()).isEqualTo("a.b");
        assertThat(fresh.scanError()).isEqualTo("Cannot read metadata");

        assertThat(Fleet.countByGrade(rows)).containsEntry(Grade.A, 1L).containsEntry(Grade.C, 1L)
                .containsEntry(Grade.F, 0L).hasSize(5);
        assertThat(Fleet.catalogs(rows)).containsExactly("lake");
        assertThat(Fleet.namespaces(rows)).containsExactly("a.b", "old", "sales");
    }
}
