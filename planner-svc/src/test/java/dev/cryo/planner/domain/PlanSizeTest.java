package dev.cryo.planner.domain;

import dev.cryo.contracts.Check;
import dev.cryo.contracts.Severity;
import dev.cryo.contracts.Topics;
import dev.cryo.contracts.event.MaintenancePlanned;
import dev.cryo.contracts.event.PartitionFieldInfo;
import dev.cryo.contracts.event.PartitionSpecInfo;
import dev.cryo.contracts.event.PartitionStats;
import dev.cryo.contracts.event.TableGraded;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.contracts.json.EventJson;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static dev.cryo.planner.domain.Fixtures.AT;
import static dev.cryo.planner.domain.Fixtures.MIB;
import static dev.cryo.planner.domain.Fixtures.deduction;
import static dev.cryo.planner.domain.Fixtures.graded;
import static dev.cryo.planner.domain.Fixtures.scan;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The largest plans Cryo expects: every partition of a 10 000-partition table, in one Kafka record. */
class PlanSizeTest {

    @Test
    void aPlanOfTenThousandPartitionsFitsInOneRecord() {
        PartitionSpecInfo dayAndBucket = new PartitionSpecInfo(0, List.of(
                new PartitionFieldInfo("event_day", "event_ts", 1, "timestamptz", "day"),
                new PartitionFieldInfo("user_bucket", "user_id", 2, "long", "bucket[16]")));
        List<PartitionStats> partitions = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            // Every partition is selected by all three partition-scoped operations.
            partitions.add(new PartitionStats(0, List.of(String.valueOf(19_000 + i / 16), String.valueOf(i % 16)),
                    40, 400 * MIB, 40_000, 30, 300 * MIB, 0, List.of(), 2, 20, 1, 10));
        }
        TableGraded graded = graded(deduction(Check.SMALL_FILES, Severity.CRITICAL),
                deduction(Check.EQUALITY_DELETES, Severity.CRITICAL), deduction(Check.POSITION_DELETES, Severity.CRITICAL));
        TableScanned scan = scan(List.of(dayAndBucket), partitions);

        Planning planning = Planner.plan(graded, scan, PlanningPolicy.DEFAULTS);
        MaintenancePlanned plan = planning.toEvent("plan", AT, null, null);

        // Each operation takes the worst 2000 partitions. All three read the 400 MiB of data files per partition
        // (the deletes are applied by rewriting the files they touch), 25 partitions per 10 GiB chunk.
        assertThat(plan.operations()).extracting(operation -> operation.chunks().size()).containsExactly(80, 80, 80);
        assertThat(plan.operations()).allSatisfy(operation ->
                assertThat(operation.chunks().stream().mapToInt(chunk -> chunk.partitions().size()).sum()).isEqualTo(2000));
        assertThat(planning.notes()).contains("optimize: 10000 partitions qualify; this plan takes the worst 2000, the "
                + "rest follow in later plans (cryo.planner.max-partitions-per-operation)");
        assertThat(PlanLimits.requireFitsOneRecord(plan)).isLessThan(Topics.MAX_RECORD_BYTES / 2);

        // All 10 000 partitions of three operations do not fit one record: refused, naming the setting.
        PlanningPolicy everything = new PlanningPolicy(5, 10L * 1024 * MIB, 64, 10_000, Duration.ofDays(7), 10,
                Duration.ofDays(3));
        MaintenancePlanned huge = Planner.plan(graded, scan, everything).toEvent("plan", AT, null, null);
        assertThatThrownBy(() -> PlanLimits.requireFitsOneRecord(huge))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Cannot publish the plan of lake.sales.orders: it is ")
                .hasMessageEndingWith(" bytes of JSON, more than one record takes (8323072); lower "
                        + "cryo.planner.max-partitions-per-operation for this table");
    }
}
