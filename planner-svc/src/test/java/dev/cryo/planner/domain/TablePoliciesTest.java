package dev.cryo.planner.domain;

import dev.cryo.contracts.OrphanAgeFloors;
import dev.cryo.contracts.TableId;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TablePoliciesTest {

    private static final PolicyOverride SMALL_BUDGET = new PolicyOverride(null, 1024L, null, null, null, null, null);
    private static final PolicyOverride FEW_PARTITIONS = new PolicyOverride(2, null, 8, null, null, null, null);

    @Test
    void theMostSpecificMatchingPatternWinsOverTheBase() {
        TablePolicies policies = new TablePolicies(PlanningPolicy.DEFAULTS, Map.of(
                "lake.*", SMALL_BUDGET,
                "lake.dash.*", FEW_PARTITIONS), OrphanAgeFloors.UnsafeFloors.REFUSED);

        assertThat(policies.policyFor(TableId.parse("other.sales.orders"))).isEqualTo(PlanningPolicy.DEFAULTS);
        assertThat(policies.policyFor(TableId.parse("lake.sales.orders")).chunkBudgetBytes()).isEqualTo(1024L);
        PlanningPolicy dashboards = policies.policyFor(TableId.parse("lake.dash.kpis"));
        assertThat(dashboards.partitionsPerChunk()).isEqualTo(8);
        assertThat(dashboards.smallFileThreshold()).isEqualTo(2);
        // An override changes only its own settings: the rest comes from the base, not from other patterns.
        assertThat(dashboards.chunkBudgetBytes()).isEqualTo(PlanningPolicy.DEFAULTS.chunkBudgetBytes());
    }

    @Test
    void aQuestionMarkMatchesOneCharacter() {
        TablePolicies policies = new TablePolicies(PlanningPolicy.DEFAULTS, Map.of("lake.s?.t", SMALL_BUDGET),
                OrphanAgeFloors.UnsafeFloors.REFUSED);

        assertThat(policies.policyFor(TableId.parse("lake.s1.t")).chunkBudgetBytes()).isEqualTo(1024L);
        assertThat(policies.policyFor(TableId.parse("lake.s12.t"))).isEqualTo(PlanningPolicy.DEFAULTS);
    }

    @Test
    void aBadOverrideFailsUpFrontNamingItsPattern() {
        PolicyOverride tooYoung = new PolicyOverride(null, null, null, null, null, null, Duration.ofHours(6));

        assertThatThrownBy(() -> new TablePolicies(PlanningPolicy.DEFAULTS, Map.of("lake.*", tooYoung),
                OrphanAgeFloors.UnsafeFloors.REFUSED))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot remove orphan files younger than PT6H: the age floor must be at least PT24H (a writer may"
                        + " not have committed them yet); raise cryo.planner.orphan-age-floor, or set"
                        + " cryo.orphans.allow-unsafe-floor=true if every writer of every table commits sooner in"
                        + " cryo.planner.policies.\"lake.*\"");
        assertThat(new TablePolicies(PlanningPolicy.DEFAULTS, Map.of("lake.*", tooYoung), OrphanAgeFloors.UnsafeFloors.ALLOWED)
                .policyFor(TableId.parse("lake.a.b")).orphanAgeFloor()).isEqualTo(Duration.ofHours(6));
        PlanningPolicy youngBase = new PlanningPolicy(5, 1024, 8, 2000, Duration.ofDays(7), 10, Duration.ofHours(2));
        assertThatThrownBy(() -> TablePolicies.of(youngBase)).hasMessageStartingWith("Cannot remove orphan files younger than PT2H");
    }

    @Test
    void policiesOutsideTheirRangesAreRejected() {
        assertThatThrownBy(() -> new PlanningPolicy(0, 1, 1, 2000, Duration.ZERO, 1, Duration.ofHours(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot use small-file threshold 0: it must be at least 1 (cryo.planner.small-file-threshold)");
        assertThatThrownBy(() -> new PlanningPolicy(1, 0, 1, 2000, Duration.ZERO, 1, Duration.ofHours(1)))
                .hasMessage("Cannot use chunk budget 0 bytes: it must be positive (cryo.planner.chunk-budget-bytes)");
        assertThatThrownBy(() -> new PlanningPolicy(1, 1, 0, 2000, Duration.ZERO, 1, Duration.ofHours(1)))
                .hasMessage("Cannot use 0 partitions per chunk: it must be at least 1 (cryo.planner.partitions-per-chunk)");
        assertThatThrownBy(() -> new PlanningPolicy(1, 1, 1, 2000, Duration.ZERO, 0, Duration.ofHours(1)))
                .hasMessage("Cannot keep the last 0 snapshots: it must be at least 1 (cryo.planner.retain-last)");
        assertThatThrownBy(() -> new PlanningPolicy(1, 1, 1, 2000, Duration.ZERO, 1, Duration.ofHours(-1)))
                .hasMessage("Cannot use orphan age floor PT-1H: it is negative (cryo.planner.orphan-age-floor)");
        assertThat(new PlanningPolicy(1, 1, 1, 2000, Duration.ZERO, 1, Duration.ofHours(1)).orphanAgeFloor())
                .isEqualTo(Duration.ofHours(1));
    }
}
