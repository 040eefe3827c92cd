package dev.cryo.planner.config;

import dev.cryo.contracts.OrphanAgeFloors;
import dev.cryo.contracts.TableId;
import dev.cryo.planner.domain.PlanningPolicy;
import dev.cryo.planner.domain.TablePolicies;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class PlannerConfigTest {

    @Test
    void defaultsAreTheOnesOfScoringMd() {
        PlannerConfig config = mapping(Map.of());

        assertThat(config.smallFileThreshold()).isEqualTo(5);
        assertThat(config.chunkBudgetBytes()).isEqualTo(10L * 1024 * 1024 * 1024);
        assertThat(config.partitionsPerChunk()).isEqualTo(64);
        assertThat(config.maxPartitionsPerOperation()).isEqualTo(2000);
        assertThat(config.snapshotRetention()).isEqualTo(Duration.ofDays(7));
        assertThat(config.retainLast()).isEqualTo(10);
        assertThat(config.orphanAgeFloor()).isEqualTo(Duration.ofDays(3));
        assertThat(config.scansKeptPerTable()).isEqualTo(3);
        assertThat(config.policies()).isEmpty();
        assertThat(config.basePolicy()).isEqualTo(PlanningPolicy.DEFAULTS);
    }

    @Test
    void aTablePatternOverridesOnlyTheKeysItSets() {
        PlannerConfig config = mapping(Map.of(
                "cryo.planner.partitions-per-chunk", "32",
                "cryo.planner.policies.\"lake.dashboards.*\".chunk-budget-bytes", "2147483648",
                "cryo.planner.policies.\"lake.dashboards.*\".orphan-age-floor", "P2D"));

        TablePolicies policies = new TablePolicies(config.basePolicy(), config.overridesByPattern(),
                OrphanAgeFloors.UnsafeFloors.REFUSED);

        PlanningPolicy dashboards = policies.policyFor(TableId.parse("lake.dashboards.kpis"));
        assertThat(dashboards.chunkBudgetBytes()).isEqualTo(2147483648L);
        assertThat(dashboards.orphanAgeFloor()).isEqualTo(Duration.ofDays(2));
        assertThat(dashboards.partitionsPerChunk()).isEqualTo(32);
        assertThat(dashboards.smallFileThreshold()).isEqualTo(5);
        assertThat(policies.policyFor(TableId.parse("lake.sales.orders")).chunkBudgetBytes())
                .isEqualTo(PlanningPolicy.DEFAULTS.chunkBudgetBytes());
    }

    private static PlannerConfig mapping(Map<String, String> properties) {
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .withMapping(PlannerConfig.class)
                .withSources(new PropertiesConfigSource(properties, "test", 100))
                .build();
        return config.getConfigMapping(PlannerConfig.class);
    }
}
