package dev.cryo.console.domain;

import dev.cryo.contracts.Grade;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FleetQueryTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");

    private final List<FleetRow> rows = List.of(
            row("lake.sales.orders", Grade.D, 44, T0.plusSeconds(30), "native"),
            row("lake.sales.refunds", Grade.A, 100, T0.plusSeconds(10), "trino"),
            row("lake.web.clicks", Grade.F, 12, T0.plusSeconds(20), null),
            row("other.web.clicks", Grade.D, 44, null, "spark"),
            ungraded("lake.web.new_table", T0.plusSeconds(40)));

    @Test
    void theDefaultIsWorstFirstWithUngradedTablesLast() {
        assertThat(tables(FleetQuery.DEFAULT.apply(rows))).containsExactly(
                "lake.web.clicks", "lake.sales.orders", "other.web.clicks", "lake.sales.refunds", "lake.web.new_table");
    }

    @Test
    void filtersByGradeCatalogNamespaceAndText() {
        FleetQuery query = FleetQuery.parse(List.of("d, F"), "lake", null, null, null, null);
        assertThat(query.grades()).isEqualTo(Set.of(Grade.D, Grade.F));
        assertThat(tables(query.apply(rows))).containsExactly("lake.web.clicks", "lake.sales.orders");

        assertThat(tables(FleetQuery.parse(List.of(), null, "web", " CLICK ", null, null).apply(rows)))
                .containsExactly("lake.web.clicks", "other.web.clicks");
        assertThat(FleetQuery.parse(List.of(), "", " ", null, null, null).filtered()).isFalse();
    }

    @Test
    void sortsEachWayKeepingRowsWithoutAValueLast() {
        FleetQuery newestFirst = FleetQuery.parse(null, null, null, null, "lastChange", null);
        assertThat(newestFirst.descending()).isTrue();
        assertThat(tables(newestFirst.apply(rows))).containsExactly(
                "lake.web.new_table", "lake.sales.orders", "lake.web.clicks", "lake.sales.refunds", "other.web.clicks");

        FleetQuery bestFirst = FleetQuery.parse(null, null, null, null, "score", "desc");
        assertThat(tables(bestFirst.apply(rows))).containsExactly(
                "lake.sales.refunds", "lake.sales.orders", "other.web.clicks", "lake.web.clicks", "lake.web.new_table");

        assertThat(tables(FleetQuery.parse(null, null, null, null, "engine", "asc").apply(rows))).containsExactly(
                "lake.sales.orders", "other.web.clicks", "lake.sales.refunds", "lake.web.clicks", "lake.web.new_table");
        assertThat(tables(FleetQuery.parse(null, null, null, null, "table", null).apply(rows))).startsWith(
                "lake.sales.orders", "lake.sales.refunds");
    }

    @Test
    void badParametersAreRefusedWithWhatToWrite() {
        assertThatThrownBy(() -> FleetQuery.parse(List.of("A,Q"), null, null, null, null, null))
                .isInstanceOf(InvalidInputException.class)
                .hasMessage("Cannot filter the fleet by grade 'Q': use the letters A, B, C, D or F");
        assertThatThrownBy(() -> FleetQuery.parse(null, null, null, null, "size", null))
                .hasMessage("Cannot sort the fleet by 'size': sort by one of [score, table, lastChange, graded, engine]");
        assertThatThrownBy(() -> FleetQuery.parse(null, null, null, null, "score", "up"))
                .hasMessage("Cannot order the fleet 'up': use asc or desc");
        assertThatThrownBy(() -> FleetQuery.parse(null, null, null, "x".repeat(201), null, null))
                .hasMessage("Cannot filter the fleet by search: the text is longer than 200 characters");
    }

    private static List<String> tables(List<FleetRow> rows) {
        return rows.stream().map(FleetRow::table).toList();
    }

    private static FleetRow row(String table, Grade grade, int score, Instant lastChange, String engine) {
        String[] parts = table.split("\\.");
        return new FleetRow(table, parts[0], parts[1], grade, score, null, T0, lastChange, "watcher", false, null,
                engine, false);
    }

    private static FleetRow ungraded(String table, Instant lastChange) {
        String[] parts = table.split("\\.");
        return new FleetRow(table, parts[0], parts[1], null, null, null, null, lastChange, "commit-report", true, null,
                null, null);
    }
}
