package dev.cryo.planner.domain;

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
                "lake.dash.*", FEW_PARTITIONS));

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
        TablePolicies policies = new TablePolicies(PlanningPolicy.DEFAULTS, Map.of("lake.s?.t", SMALL_BUDGET));

        assertThat(policies.policyFor(TableId.parse("lake.s1.t")).chunkBudgetBytes()).isEqualTo(1024L);
        assertThat(policies.policyFor(TableId.parse("lake.s12.t"))).isEqualTo(PlanningPolicy.DEFAULTS);
    }

    @Test
    void aBadOverrideFailsUpFrontNamingItsPattern() {
        PolicyOverride tooYoung = new PolicyOverride(null, null, null, null, null, null, Duration.ofMinutes(30));

        assertThatThrownBy(() -> new TablePolicies(PlanningPolicy.DEFAULTS, Map.of("lake.*", tooYoung)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot use orphan age floor PT30M: it must be at least PT1H, younger files may belong to a "
                        + "commit in flight (cryo.planner.orphan-age-floor) in cryo.planner.policies.\"lake.*\"");
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
        assertThat(new PlanningPolicy(1, 1, 1, 2000, Duration.ZERO, 1, Duration.ofHours(1)).orphanAgeFloor())
                .isEqualTo(Duration.ofHours(1));
    }
}
