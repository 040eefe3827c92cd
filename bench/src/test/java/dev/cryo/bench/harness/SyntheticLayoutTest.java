package dev.cryo.bench.harness;

import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SyntheticLayoutTest {

    @Test
    void everyPartitionGetsItsShareOfTheFilesInTimeOrder() {
        SyntheticLayout layout = new SyntheticLayout(1003, 10, 7, 1);
        int[] perPartition = new int[10];
        int previous = 0;
        for (int file = 0; file < 1003; file++) {
            int partition = layout.partitionOf(file);
            assertThat(partition).isBetween(previous, previous + 1);
            previous = partition;
            perPartition[partition]++;
        }
        for (int count : perPartition) {
            assertThat(count).isBetween(100, 101);
        }
        assertThat(layout.partitionOf(0)).isZero();
        assertThat(layout.partitionOf(1002)).isEqualTo(9);
    }

    @Test
    void commitsCoverEveryFileOnceInContiguousRuns() {
        SyntheticLayout layout = new SyntheticLayout(1003, 10, 7, 1);
        assertThat(layout.firstFileOf(0)).isZero();
        assertThat(layout.firstFileOf(7)).isEqualTo(1003);
        int covered = 0;
        for (int commit = 0; commit < 7; commit++) {
            int first = layout.firstFileOf(commit);
            int end = layout.firstFileOf(commit + 1);
            assertThat(end - first).isBetween(143, 144);
            for (int file = first; file < end; file++) {
                assertThat(layout.commitOf(file)).isEqualTo(commit);
                covered++;
            }
        }
        assertThat(covered).isEqualTo(1003);
    }

    @Test
    void sizesAreWithinTheBoundsSpreadAndTheSameForTheSameSeed() {
        SyntheticLayout layout = new SyntheticLayout(2000, 50, 20, 42);
        SyntheticLayout again = new SyntheticLayout(2000, 50, 20, 42);
        SyntheticLayout other = new SyntheticLayout(2000, 50, 20, 43);
        int belowOneMebibyte = 0;
        int aboveSixtyFourMebibytes = 0;
        boolean differs = false;
        long bytes = 0;
        long records = 0;
        for (int file = 0; file < 2000; file++) {
            long size = layout.sizeBytes(file);
            assertThat(size).isBetween(SyntheticLayout.MIN_FILE_BYTES, SyntheticLayout.MAX_FILE_BYTES);
            assertThat(again.sizeBytes(file)).isEqualTo(size);
            differs |= other.sizeBytes(file) != size;
            belowOneMebibyte += size < 1024 * 1024 ? 1 : 0;
            aboveSixtyFourMebibytes += size > 64L * 1024 * 1024 ? 1 : 0;
            assertThat(layout.records(file)).isEqualTo(size / SyntheticLayout.BYTES_PER_RECORD);
            bytes += size;
            records += layout.records(file);
        }
        // log-uniform over 12 doublings: 4 of them below 1 MiB, 2 above 64 MiB
        assertThat(belowOneMebibyte).isBetween(550, 780);
        assertThat(aboveSixtyFourMebibytes).isBetween(230, 440);
        assertThat(differs).isTrue();
        assertThat(layout.totalBytes()).isEqualTo(bytes);
        assertThat(layout.totalRecords()).isEqualTo(records);
    }

    @Test
    void pathsAreUniqueAndUnderTheirDayPartition() {
        SyntheticLayout layout = new SyntheticLayout(200, 50, 20, 1);
        Set<String> paths = new HashSet<>();
        for (int file = 0; file < 200; file++) {
            String path = layout.path("file:///w/t", file);
            assertThat(path).startsWith("file:///w/t/data/event_ts_day=" + layout.dayOf(layout.partitionOf(file)) + "/");
            paths.add(path);
        }
        assertThat(paths).hasSize(200);
        assertThat(layout.dayOf(0)).isEqualTo(LocalDate.of(2024, 1, 1));
        assertThat(layout.dayOf(49)).isEqualTo(LocalDate.of(2024, 2, 19));
    }

    @Test
    void rejectsLayoutsWithFewerFilesThanPartitionsOrCommits() {
        assertThatThrownBy(() -> new SyntheticLayout(10, 20, 5, 1))
                .hasMessage("Cannot lay out 10 files: set scan.files to at least scan.partitions (20) and scan.commits (5)");
        assertThatThrownBy(() -> new SyntheticLayout(10, 0, 5, 1))
                .hasMessage("Cannot lay out 10 files: partitions (0) and commits (5) must be positive");
        assertThatThrownBy(() -> new SyntheticLayout(10, 5, 5, 1).partitionOf(10))
                .hasMessage("Cannot find file 10: there are 10");
    }
}
