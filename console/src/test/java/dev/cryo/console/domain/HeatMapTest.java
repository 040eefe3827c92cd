package dev.cryo.console.domain;

import dev.cryo.contracts.event.PartitionFieldInfo;
import dev.cryo.contracts.event.PartitionSpecInfo;
import dev.cryo.contracts.event.PartitionStats;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.cryo.console.domain.ScanSamples.partition;
import static dev.cryo.console.domain.ScanSamples.scan;
import static org.assertj.core.api.Assertions.assertThat;

class HeatMapTest {

    private static final PartitionFieldInfo DAY = new PartitionFieldInfo("event_ts_day", "event_ts", 2, "timestamptz", "day");
    private static final PartitionFieldInfo BUCKET = new PartitionFieldInfo("id_bucket", "id", 1, "long", "bucket[4]");

    @Test
    void aDayPartitionedTableIsAStripOfDaysInOrderColouredBySmallFiles() {
        HeatMap map = HeatMap.of(scan(List.of(new PartitionSpecInfo(0, List.of(DAY))), List.of(
                partition(0, 12, 12, 0, "20787"),
                partition(0, 1, 0, 0, "20785"),
                partition(0, 6, 5, 2, "20786"))));

        assertThat(map.partitions()).isEqualTo(3);
        assertThat(map.maxSmallFiles()).isEqualTo(12);
        HeatMap.SpecBlock block = map.specs().get(0);
        assertThat(block.grid()).isFalse();
        assertThat(block.fields()).isEqualTo("event_ts_day = day(event_ts)");
        List<HeatMap.Cell> cells = block.rows().get(0).cells();
        assertThat(cells).extracting(HeatMap.Cell::label).containsExactly("2026-11-28", "2026-11-29", "2026-11-30");
        assertThat(cells).extracting(HeatMap.Cell::level).containsExactly(0, 3, 5);
        assertThat(cells.get(1).title()).isEqualTo("2026-11-29: 5 small of 6 data files (4.9 KiB small), 2 delete files");
        assertThat(block.rows().get(0).label()).isEqualTo("2026-11-28");
    }

    @Test
    void longStripsWrapIntoRows() {
        List<PartitionStats> days = new ArrayList<>();
        for (int day = 0; day < 30; day++) {
            days.add(partition(0, 3, day % 4, 0, Integer.toString(20_000 + day)));
        }
        HeatMap map = HeatMap.of(scan(List.of(new PartitionSpecInfo(0, List.of(DAY))), days));

        List<HeatMap.Row> rows = map.specs().get(0).rows();
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0).cells()).hasSize(HeatMap.CELLS_PER_ROW);
        assertThat(rows.get(1).cells()).hasSize(30 - HeatMap.CELLS_PER_ROW);
        assertThat(rows.get(1).label()).isEqualTo(rows.get(1).cells().get(0).label());
    }

    @Test
    void twoFieldsMakeAGridWithEmptyPositionsWhereNoPartitionExists() {
        HeatMap map = HeatMap.of(scan(List.of(new PartitionSpecInfo(1, List.of(DAY, BUCKET))), List.of(
                partition(1, 4, 4, 0, "20786", "1"),
                partition(1, 2, 0, 0, "20785", "0"),
                partition(1, 8, 8, 0, "20785", "3"))));

        HeatMap.SpecBlock block = map.specs().get(0);
        assertThat(block.grid()).isTrue();
        assertThat(block.columns()).containsExactly("bucket 0 of 4", "bucket 1 of 4", "bucket 3 of 4");
        assertThat(block.rows()).extracting(HeatMap.Row::label).containsExactly("2026-11-28", "2026-11-29");
        // the worst partition has 8 small files: below DARKEST_AT_LEAST, so not the darkest colour
        assertThat(block.rows().get(0).cells()).extracting(HeatMap.Cell::level).containsExactly(0, -1, 4);
        assertThat(block.rows().get(1).cells()).extracting(HeatMap.Cell::level).containsExactly(-1, 2, -1);
        assertThat(block.rows().get(0).cells().get(1).empty()).isTrue();
        assertThat(block.rows().get(0).cells().get(2).label()).isEqualTo("2026-11-28 · bucket 3 of 4");
    }

    @Test
    void anEvolvedTableShowsEachSpecNewestFirstAndAnUnpartitionedOneAsOneCell() {
        HeatMap evolved = HeatMap.of(scan(List.of(new PartitionSpecInfo(0, List.of(DAY)),
                        new PartitionSpecInfo(1, List.of(DAY, BUCKET))),
                List.of(partition(0, 9, 9, 0, "20780"), partition(1, 1, 1, 0, "20786", "2"))));
        assertThat(evolved.specs()).extracting(HeatMap.SpecBlock::specId).containsExactly(1, 0);

        HeatMap whole = HeatMap.of(scan(List.of(new PartitionSpecInfo(0, List.of())), List.of(partition(0, 20, 20, 0))));
        assertThat(whole.specs().get(0).fields()).isEqualTo("unpartitioned");
        assertThat(whole.specs().get(0).rows().get(0).cells()).extracting(HeatMap.Cell::label).containsExactly("whole table");
    }

    @Test
    void aSpecWithTooManyPartitionsKeepsThoseWithTheMostSmallFiles() {
        List<PartitionStats> hours = new ArrayList<>();
        for (int hour = 0; hour < HeatMap.MAX_CELLS_PER_SPEC + 10; hour++) {
            hours.add(partition(0, 1, hour < 10 ? 0 : 1, 0, Integer.toString(hour)));
        }
        HeatMap map = HeatMap.of(scan(List.of(new PartitionSpecInfo(0, List.of(
                new PartitionFieldInfo("ts_hour", "ts", 1, "timestamptz", "hour")))), hours));

        assertThat(map.hiddenPartitions()).isEqualTo(10);
        assertThat(map.specs().get(0).rows().stream().flatMap(row -> row.cells().stream()))
                .hasSize(HeatMap.MAX_CELLS_PER_SPEC).allMatch(cell -> cell.smallFiles() == 1);
    }

    @Test
    void levelsGrowWithTheShareOfTheWorstPartition() {
        assertThat(HeatMap.level(0, 10)).isZero();
        assertThat(HeatMap.level(1, 100)).isEqualTo(1);
        assertThat(HeatMap.level(50, 100)).isEqualTo(3);
        assertThat(HeatMap.level(100, 100)).isEqualTo(5);
        assertThat(HeatMap.level(3, 0)).isZero();
    }
}
