package dev.cryo.contracts;

import dev.cryo.contracts.event.PartitionStats;
import dev.cryo.contracts.event.TableTotals;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Table totals are the sums of their partitions, and stay so when a rewrite replaces one of them. */
class TableTotalsTest {

    private static final PartitionStats DAY_1 = partition("2026-11-01", 40, 4_000, 900, 38, 3_000, 1, 2, 20, 1, 5);
    private static final PartitionStats DAY_2 = partition("2026-11-02", 7, 9_000, 300, 0, 0, 2, 0, 0, 3, 30);
    private static final PartitionStats DAY_1_COMPACTED = partition("2026-11-01", 2, 3_900, 880, 0, 0, 1, 0, 0, 0, 0);

    @Test
    void theTotalsOfPartitionsAreTheirSums() {
        assertThat(TableTotals.of(List.of(DAY_1, DAY_2)))
                .isEqualTo(new TableTotals(2, 47, 13_000, 1_200, 38, 3_000, 3, 2, 20, 4, 35));
        assertThat(TableTotals.of(List.of())).isEqualTo(TableTotals.EMPTY);
    }

    @Test
    void replacingAPartitionGivesTheSumsOfThePartitionsAfterIt() {
        assertThat(TableTotals.of(List.of(DAY_1, DAY_2)).replacing(DAY_1, DAY_1_COMPACTED))
                .isEqualTo(TableTotals.of(List.of(DAY_1_COMPACTED, DAY_2)));
        assertThat(TableTotals.of(List.of(DAY_1, DAY_2)).replacing(DAY_2, DAY_2))
                .isEqualTo(TableTotals.of(List.of(DAY_1, DAY_2)));
    }

    @Test
    void totalsThatAreNotTheSumsOfTheirPartitionsGoNoLowerThanZero() {
        TableTotals lessThanItsPartition = new TableTotals(1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0);
        assertThat(lessThanItsPartition.replacing(DAY_1, DAY_1_COMPACTED))
                .isEqualTo(new TableTotals(1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    }

    private static PartitionStats partition(String day, long dataFiles, long dataBytes, long records, long smallFiles,
                                            long smallFileBytes, long oversizedFiles, long positionDeleteFiles,
                                            long positionDeleteRecords, long equalityDeleteFiles, long equalityDeleteRecords) {
        return new PartitionStats(0, List.of(day), dataFiles, dataBytes, records, smallFiles, smallFileBytes, oversizedFiles,
                List.of(), positionDeleteFiles, positionDeleteRecords, equalityDeleteFiles, equalityDeleteRecords);
    }
}
