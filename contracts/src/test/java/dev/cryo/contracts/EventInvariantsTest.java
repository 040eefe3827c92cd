package dev.cryo.contracts;

import dev.cryo.contracts.cloudevents.EventType;
import dev.cryo.contracts.event.Chunk;
import dev.cryo.contracts.event.Estimate;
import dev.cryo.contracts.event.FileSizeHistogram;
import dev.cryo.contracts.event.GradeChanged;
import dev.cryo.contracts.event.MaintenancePlanned;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.contracts.event.OrphanStats;
import dev.cryo.contracts.event.PartitionPredicate;
import dev.cryo.contracts.event.PlannedOperation;
import dev.cryo.contracts.event.TableGraded;
import dev.cryo.contracts.json.EventJson;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EventInvariantsTest {

    private static final TableId TABLE = TableId.parse("c.ns.t");
    private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");

    @Test
    void planOperationsMustBeInTheFixedOrder() {
        assertThatThrownBy(() -> plan(List.of(whole(Operation.EXPIRE_SNAPSHOTS), whole(Operation.OPTIMIZE_MANIFESTS))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("operations must be unique and in the fixed order, found expire_snapshots before optimize_manifests");
        assertThatThrownBy(() -> plan(List.of(whole(Operation.EXPIRE_SNAPSHOTS), whole(Operation.EXPIRE_SNAPSHOTS))))
                .hasMessageContaining("unique and in the fixed order");
    }

    @Test
    void aPlanWithoutOperationsIsRefused() {
        assertThatThrownBy(() -> plan(List.of()))
                .hasMessage("a plan needs at least one operation: a healthy table gets no plan");
    }

    @Test
    void wholeTableOperationsTakeNoChunks() {
        Chunk chunk = new Chunk(0, List.of(new PartitionPredicate(0, List.of())), Estimate.ZERO);

        assertThatThrownBy(() -> new PlannedOperation(Operation.EXPIRE_SNAPSHOTS, List.of(), List.of(chunk), null, null))
                .hasMessage("expire_snapshots works on the whole table and takes no chunks");
    }

    @Test
    void chunkIndexesAreConsecutive() {
        Chunk second = new Chunk(1, List.of(new PartitionPredicate(0, List.of())), Estimate.ZERO);

        assertThatThrownBy(() -> new PlannedOperation(Operation.OPTIMIZE, List.of(), List.of(second), null, null))
                .hasMessage("optimize chunk indexes must be 0..0 in order, found 1 at position 0");
    }

    @Test
    void gradeMustMatchScore() {
        assertThatThrownBy(() -> new TableGraded(TABLE, "scan", null, NOW, 75, Grade.A, 1.0, List.of(), List.of()))
                .hasMessage("grade A does not match score 75");
    }

    @Test
    void aGradeChangeMustChangeTheGrade() {
        assertThatThrownBy(() -> new GradeChanged(TABLE, Grade.B, 80, Grade.B, 76, null, NOW, List.of()))
                .hasMessage("grade did not change: B");
    }

    @Test
    void parametersRejectNonsense() {
        assertThatThrownBy(() -> new OperationParameters(null, null, 0, null))
                .hasMessage("retainLast must be at least 1: 0");
    }

    @Test
    void histogramBucketsFollowTheTarget() {
        long target = 512;
        assertThat(FileSizeHistogram.bucketOf(0, target)).isZero();
        assertThat(FileSizeHistogram.bucketOf(127, target)).isEqualTo(2);
        assertThat(FileSizeHistogram.bucketOf(128, target)).isEqualTo(3);
        assertThat(FileSizeHistogram.bucketOf(1024, target)).isEqualTo(6);
        assertThat(FileSizeHistogram.BUCKETS).isEqualTo(7);
    }

    @Test
    void absentOptionalFieldsAreOmittedFromJson() {
        MaintenancePlanned plan = plan(List.of(whole(Operation.OPTIMIZE_MANIFESTS)));

        String json = EventJson.writeString(plan);

        assertThat(json).doesNotContain("null").doesNotContain("supersedesPlanId").doesNotContain("actor");
        assertThat(EventJson.read(json.getBytes(StandardCharsets.UTF_8), MaintenancePlanned.class)).isEqualTo(plan);
        assertThat(EventType.of(plan)).isEqualTo(EventType.MAINTENANCE_PLANNED);
    }

    @Test
    void orphanStatsOfOlderEventsReadWithoutTheirNewerFields() throws Exception {
        OrphanStats older = EventJson.mapper().readValue("""
                {"listedAt":"2026-11-29T03:00:00Z","listedFiles":10,"orphanFiles":2,"orphanBytes":64,"ageFloor":"PT72H"}""",
                OrphanStats.class);

        assertThat(older).isEqualTo(new OrphanStats(Instant.parse("2026-11-29T03:00:00Z"), 10, 2, 64, Duration.ofDays(3)));
        assertThat(older.otherTablesFiles()).isZero();
        assertThat(older.refusal()).isNull();
    }

    @Test
    void aRefusedOrphanListingCountsNoOrphans() {
        assertThatThrownBy(() -> new OrphanStats(NOW, 10, 2, 64, Duration.ofDays(3), 0L, "nested"))
                .hasMessage("orphanFiles must be 0 when orphan removal is refused, was 2");
        assertThat(OrphanStats.refused(NOW, Duration.ofDays(3), "nested").orphanFiles()).isZero();
    }

    private static PlannedOperation whole(Operation operation) {
        return new PlannedOperation(operation, List.of(), List.of(), null, null);
    }

    private static MaintenancePlanned plan(List<PlannedOperation> operations) {
        return new MaintenancePlanned("plan-1", TABLE, "scan-1", null, null, NOW, 50, Grade.D, 90, operations,
                Estimate.ZERO, null, null);
    }
}
