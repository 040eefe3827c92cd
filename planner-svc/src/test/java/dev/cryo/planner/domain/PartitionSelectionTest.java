package dev.cryo.planner.domain;

import dev.cryo.contracts.Operation;
import dev.cryo.contracts.event.Estimate;
import dev.cryo.contracts.event.PartitionStats;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.cryo.planner.domain.Fixtures.MIB;
import static dev.cryo.planner.domain.Fixtures.TARGET;
import static dev.cryo.planner.domain.Fixtures.partition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PartitionSelectionTest {

    @Test
    void partitionsAreRankedBySmallFilesThenDeleteFilesThenSpecAndValues() {
        List<PartitionStats> partitions = List.of(
                partition(0, List.of("a"), 6, 6 * MIB, 0, 0),
                partition(0, List.of("b"), 9, 9 * MIB, 0, 0),
                partition(0, List.of("c"), 6, 6 * MIB, 1, 2),
                partition(1, List.of("a"), 6, 6 * MIB, 3, 0),
                partition(0, List.of("d"), 6, 6 * MIB, 3, 0));

        List<Candidate> ranked = PartitionSelection.select(Operation.OPTIMIZE, partitions, 5, TARGET);

        assertThat(ranked).extracting(candidate -> candidate.partition().specId() + ":" + candidate.partition().values())
                .containsExactly("0:[b]", "0:[c]", "0:[d]", "1:[a]", "0:[a]");
    }

    @Test
    void nullPartitionValuesRankBeforeOthersOnATie() {
        List<PartitionStats> partitions = new java.util.ArrayList<>();
        partitions.add(partition(0, List.of("x"), 5, 5 * MIB, 0, 0));
        partitions.add(partition(0, java.util.Arrays.asList((String) null), 5, 5 * MIB, 0, 0));

        assertThat(PartitionSelection.select(Operation.OPTIMIZE, partitions, 5, TARGET))
                .extracting(candidate -> candidate.partition().values().get(0))
                .containsExactly(null, "x");
    }

    @Test
    void partitionsUnderTheThresholdAreSkippedUnlessTheyHaveDeleteFiles() {
        PartitionStats fourSmall = partition(0, List.of("four"), 4, 4 * MIB, 0, 0);
        PartitionStats fiveSmall = partition(0, List.of("five"), 5, 5 * MIB, 0, 0);
        PartitionStats noneSmallWithPositionDeletes = partition(0, List.of("pos"), 0, 0, 1, 0);
        PartitionStats noneSmallWithEqualityDeletes = partition(0, List.of("eq"), 0, 0, 0, 1);
        List<PartitionStats> partitions = List.of(fourSmall, fiveSmall, noneSmallWithPositionDeletes,
                noneSmallWithEqualityDeletes);

        assertThat(PartitionSelection.underThreshold(fourSmall, 5)).isTrue();
        assertThat(PartitionSelection.underThreshold(fiveSmall, 5)).isFalse();
        assertThat(PartitionSelection.underThreshold(noneSmallWithPositionDeletes, 5)).isFalse();
        assertThat(select(Operation.OPTIMIZE, partitions, 5)).containsExactly("five", "eq", "pos");
        assertThat(select(Operation.OPTIMIZE, partitions, 4)).containsExactly("five", "four", "eq", "pos");
        assertThat(select(Operation.CONVERT_DELETES, partitions, 5)).containsExactly("eq");
        assertThat(select(Operation.REWRITE_POSITION_DELETES, partitions, 5)).containsExactly("pos");
    }

    @Test
    void aPartitionsLoneSmallFileIsNeverRewrittenWhateverTheThreshold() {
        PartitionStats oneSmall = partition(0, List.of("one"), 1, MIB, 0, 0);
        PartitionStats twoSmall = partition(0, List.of("two"), 2, 2 * MIB, 0, 0);
        PartitionStats oneSmallWithDeletes = partition(0, List.of("deletes"), 1, MIB, 1, 0);

        assertThat(PartitionSelection.underThreshold(oneSmall, 1)).as("nothing to merge it with").isTrue();
        assertThat(select(Operation.OPTIMIZE, List.of(oneSmall, twoSmall, oneSmallWithDeletes), 1))
                .containsExactly("two", "deletes");
    }

    @Test
    void eachOperationCountsItsOwnInput() {
        PartitionStats clean = partition(0, List.of("clean"), 8, 300 * MIB, 0, 0);
        PartitionStats withDeletes = partition(0, List.of("deletes"), 8, 300 * MIB, 2, 3);

        assertThat(PartitionSelection.estimate(Operation.OPTIMIZE, clean, TARGET))
                .isEqualTo(new Estimate(8, 300 * MIB, 0, 1));
        // Deletes are applied to the files they touch, which the scan cannot name: all data files are input.
        assertThat(PartitionSelection.estimate(Operation.OPTIMIZE, withDeletes, TARGET))
                .isEqualTo(new Estimate(10, 300 * MIB + 2 * TARGET, 5, 3));
        assertThat(PartitionSelection.estimate(Operation.CONVERT_DELETES, withDeletes, TARGET))
                .isEqualTo(new Estimate(10, 300 * MIB + 2 * TARGET, 3, 3));
        // The native engine rewrites the data files position deletes touch: like convert_deletes, all of them.
        assertThat(PartitionSelection.estimate(Operation.REWRITE_POSITION_DELETES, withDeletes, TARGET))
                .isEqualTo(new Estimate(10, 300 * MIB + 2 * TARGET, 2, 3));
    }

    @Test
    void wholeTableOperationsSelectNoPartition() {
        assertThatThrownBy(() -> PartitionSelection.select(Operation.EXPIRE_SNAPSHOTS, List.of(), 5, TARGET))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("expire_snapshots works on the whole table: it selects no partition");
    }

    private static List<String> select(Operation operation, List<PartitionStats> partitions, int threshold) {
        return PartitionSelection.select(operation, partitions, threshold, TARGET).stream()
                .map(candidate -> candidate.partition().values().get(0)).toList();
    }
}
