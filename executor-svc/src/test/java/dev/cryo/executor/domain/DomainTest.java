package dev.cryo.executor.domain;

import dev.cryo.contracts.OrphanAgeFloors;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.FieldPredicate;
import dev.cryo.contracts.event.JobOutcome;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.contracts.event.OperationStatus;
import dev.cryo.contracts.event.PartitionPredicate;
import dev.cryo.executor.Jobs;
import dev.cryo.executor.engine.StepKey;
import dev.cryo.executor.engine.Backoff;
import dev.cryo.executor.engine.OrphanAgeFloor;
import dev.cryo.executor.engine.OrphanShareBrake;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The executor's pure decisions: steps of a plan, outcomes, backoff, the orphan floor, step names. */
class DomainTest {

    private static final PartitionPredicate DAY = new PartitionPredicate(0, List.of(new FieldPredicate("event_ts_day",
            "event_ts", "timestamptz", "day", "20393", "2025-10-31T00:00:00Z", "2025-11-01T00:00:00Z", null)));

    @Test
    void aPlanUnrollsIntoChunksThenWholeTableStepsInTheFixedOrder() {
        var plan = Jobs.admitted(TableId.parse("c.n.t"), "job", List.of(
                Jobs.chunked(Operation.CONVERT_DELETES, OperationParameters.NONE, List.of(List.of(DAY))),
                Jobs.chunked(Operation.OPTIMIZE, OperationParameters.NONE, List.of(List.of(DAY), List.of(DAY))),
                Jobs.whole(Operation.EXPIRE_SNAPSHOTS, OperationParameters.NONE),
                Jobs.whole(Operation.REMOVE_ORPHAN_FILES, OperationParameters.NONE))).data().plan();

        assertThat(JobSteps.of(plan)).extracting(step -> step.key().toString())
                .containsExactly("convert_deletes:0", "optimize:0", "optimize:1", "expire_snapshots", "remove_orphan_files");
        assertThat(JobSteps.chunksTotal(plan)).isEqualTo(3);
    }

    @Test
    void stepNamesRoundTripAndRejectNonsense() {
        assertThat(StepKey.parse("optimize:12")).isEqualTo(StepKey.chunk(Operation.OPTIMIZE, 12));
        assertThat(StepKey.parse("expire_snapshots")).isEqualTo(StepKey.table(Operation.EXPIRE_SNAPSHOTS));
        assertThat(StepKey.chunk(Operation.OPTIMIZE, 3).toString()).isEqualTo("optimize:3");
        assertThatThrownBy(() -> StepKey.parse("optimize")).hasMessageContaining("Cannot parse step 'optimize'")
                .hasMessageContaining("needs a chunk index");
        assertThatThrownBy(() -> StepKey.parse("vacuum:1")).hasMessageContaining("Cannot parse step 'vacuum:1'");
    }

    @Test
    void outcomesFollowTheSteps() {
        assertThat(JobOutcomes.outcome(List.of(OperationStatus.SUCCEEDED, OperationStatus.SKIPPED)))
                .isEqualTo(JobOutcome.SUCCEEDED);
        assertThat(JobOutcomes.outcome(List.of(OperationStatus.SUCCEEDED, OperationStatus.FAILED)))
                .isEqualTo(JobOutcome.PARTIALLY_SUCCEEDED);
        assertThat(JobOutcomes.outcome(List.of(OperationStatus.FAILED))).isEqualTo(JobOutcome.FAILED);
        assertThat(JobOutcomes.outcome(List.of())).isEqualTo(JobOutcome.SUCCEEDED);
    }

    @Test
    void backoffDoublesUpToItsCap() {
        Backoff backoff = new Backoff(Duration.ofMillis(100), Duration.ofMillis(500));
        assertThat(List.of(backoff.delay(0), backoff.delay(1), backoff.delay(2), backoff.delay(3), backoff.delay(9)))
                .containsExactly(Duration.ZERO, Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(400),
                        Duration.ofMillis(500));
        assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .hasMessageContaining("Cannot back off: need 0 <= first <= max");
    }

    @Test
    void theOrphanFloorIsNeverBelowADayUnlessTheExecutorAllowsIt() {
        OrphanAgeFloors.UnsafeFloors refused = OrphanAgeFloors.UnsafeFloors.REFUSED;
        assertThat(OrphanAgeFloor.resolve(null, Duration.ofDays(3), refused)).isEqualTo(new OrphanAgeFloor(Duration.ofDays(3), false));
        assertThat(OrphanAgeFloor.resolve(Duration.ofHours(24), Duration.ofDays(3), refused).floor()).isEqualTo(Duration.ofHours(24));
        assertThatThrownBy(() -> OrphanAgeFloor.resolve(Duration.ofHours(23), Duration.ofDays(3), refused))
                .hasMessage("Cannot remove orphan files younger than PT23H: the age floor must be at least PT24H (a writer may"
                        + " not have committed them yet); raise the table policy's orphan age floor (cryo.planner.orphan-age-floor),"
                        + " or set cryo.orphans.allow-unsafe-floor=true if every writer of every table commits sooner");
        assertThatThrownBy(() -> OrphanAgeFloor.resolve(null, Duration.ofHours(2), refused))
                .hasMessageContaining("raise cryo.executor.orphans.default-age-floor, or set");

        OrphanAgeFloor unsafe = OrphanAgeFloor.resolve(Duration.ofHours(2), Duration.ofDays(3), OrphanAgeFloors.UnsafeFloors.ALLOWED);
        assertThat(unsafe.belowMinimum()).isTrue();
        assertThat(unsafe).hasToString("PT2H (below the PT24H minimum: cryo.orphans.allow-unsafe-floor=true)");
        assertThatThrownBy(() -> OrphanAgeFloor.resolve(Duration.ofHours(-1), Duration.ofDays(3), OrphanAgeFloors.UnsafeFloors.ALLOWED))
                .hasMessage("Cannot remove orphan files with a negative age floor PT-1H (the table policy's orphan age floor"
                        + " (cryo.planner.orphan-age-floor))");
    }

    @Test
    void theShareBrakeStopsARunThatWouldDeleteMoreThanItsShareOfFilesOrBytes() {
        OrphanShareBrake half = new OrphanShareBrake(0.5);
        assertThat(half.stops(100, 1000, 50, 500)).isEmpty();
        assertThat(half.stops(100, 1000, 51, 10)).hasValue("51 of 100 listed files (51 %) and 10 of 1000 bytes (1 %) would"
                + " go, more than cryo.executor.orphans.max-share of 50 %");
        assertThat(half.stops(100, 1000, 3, 900)).isPresent();
        assertThat(half.stops(0, 0, 0, 0)).isEmpty();
        assertThat(new OrphanShareBrake(1).stops(10, 10, 10, 10)).isEmpty();
        assertThatThrownBy(() -> new OrphanShareBrake(0))
                .hasMessage("Cannot use orphan max-share 0.0: it must be more than 0 and at most 1 (cryo.executor.orphans.max-share)");
    }
}
