package dev.cryo.scanner.domain;

import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.FileSizeTerms;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The scanner's pure rules: file-size terms, coalescing, staleness of statistics, orphan counting. */
class DomainTest {

    static final TableId A = TableId.parse("lake.sales.a");
    static final TableId B = TableId.parse("lake.sales.b");

    @Test
    void fileSizeTermsFollowTheTargetAndTheTableOverrides() {
        assertThat(FileSizeRules.termsOf(Map.of())).isEqualTo(FileSizeTerms.forTarget(512L * 1024 * 1024));
        assertThat(FileSizeRules.termsOf(Map.of("write.target-file-size-bytes", "1000")))
                .isEqualTo(new FileSizeTerms(1000, 250, 2000));
        assertThat(FileSizeRules.termsOf(Map.of("write.target-file-size-bytes", "1000",
                "cryo.small-file-threshold-bytes", "600", "cryo.oversized-file-threshold-bytes", "5000")))
                .isEqualTo(new FileSizeTerms(1000, 600, 5000));
        assertThatThrownBy(() -> FileSizeRules.termsOf(Map.of("cryo.small-file-threshold-bytes", "lots")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot read table property cryo.small-file-threshold-bytes: 'lots' is not a positive number of"
                        + " bytes; fix the property with ALTER TABLE ... SET TBLPROPERTIES");
    }

    @Test
    void aTableWaitsOnceAndIsNeverScannedTwiceAtATime() throws InterruptedException {
        AtomicLong now = new AtomicLong();
        ScanQueue queue = new ScanQueue(Duration.ofMillis(500), now::get);
        queue.offer(A);
        queue.offer(A);
        queue.offer(B);
        assertThat(queue.waitingCount()).isEqualTo(2);
        // not ready before the coalescing delay
        assertThat(queue.take(Duration.ZERO)).isEmpty();

        now.addAndGet(Duration.ofMillis(500).toNanos());
        assertThat(queue.take(Duration.ZERO)).contains(A);
        queue.offer(A);
        now.addAndGet(Duration.ofSeconds(1).toNanos());
        // A changed during its scan: it waits, but B goes first and A stays out while in flight
        assertThat(queue.take(Duration.ZERO)).contains(B);
        assertThat(queue.take(Duration.ZERO)).isEmpty();
        queue.done(A);
        assertThat(queue.take(Duration.ZERO)).contains(A);
        queue.done(A);
        queue.done(B);
        assertThat(queue.isIdle()).isTrue();
    }

    @Test
    void rowsChangedSinceTheDescribedSnapshotComeFromSummaries() {
        List<SnapshotChange> ancestry = List.of(new SnapshotChange(3, 10, 2, true, false),
                new SnapshotChange(2, 5, 0, true, false), new SnapshotChange(1, 100, 0, true, false));
        assertThat(StatisticsMath.rowsChangedSince(ancestry, 1)).isEqualTo(17);
        assertThat(StatisticsMath.rowsChangedSince(ancestry, 3)).isZero();
        assertThat(StatisticsMath.rowsChangedSince(ancestry, 99)).isNull();
        assertThat(StatisticsMath.rowsChangedSince(List.of(new SnapshotChange(2, 0, 0, false, false),
                new SnapshotChange(1, 1, 0, true, false)), 1)).isNull();
    }

    @Test
    void aRewriteChangesNoRowOfTheStatistics() {
        // a compaction of 120 rows reports them added and deleted; the 10 appended rows are the change
        List<SnapshotChange> ancestry = List.of(new SnapshotChange(3, 10, 0, true, false),
                new SnapshotChange(2, 120, 120, true, true), new SnapshotChange(1, 120, 0, true, false));
        assertThat(StatisticsMath.rowsChangedSince(ancestry, 1)).isEqualTo(10);
    }

    @Test
    void partitionsSortBySpecThenNumericValues() {
        PartitionKey day9 = new PartitionKey(0, List.of("9"));
        PartitionKey day10 = new PartitionKey(0, List.of("10"));
        PartitionKey nullDay = new PartitionKey(0, java.util.Arrays.asList((String) null));
        PartitionKey spec1 = new PartitionKey(1, List.of("1"));
        assertThat(List.of(spec1, day10, nullDay, day9).stream().sorted().toList())
                .containsExactly(nullDay, day9, day10, spec1);
    }
}
