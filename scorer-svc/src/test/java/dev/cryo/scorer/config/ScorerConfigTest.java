package dev.cryo.scorer.config;

import dev.cryo.contracts.Check;
import dev.cryo.contracts.TableId;
import dev.cryo.platform.error.CryoException;
import dev.cryo.scoring.PolicyBook;
import dev.cryo.scoring.Setting;
import dev.cryo.scoring.Source;
import dev.cryo.scoring.TablePolicy;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The configuration mapping on a real SmallRye Config, without starting Quarkus. */
class ScorerConfigTest {

    @Test
    void defaults() {
        ScorerConfig config = mapping(Map.of()).getConfigMapping(ScorerConfig.class);

        assertThat(config.checks()).isEmpty();
        assertThat(config.policies()).isEmpty();
        assertThat(config.api().historyLimit()).isEqualTo(50);
        assertThat(config.api().pageLimit()).isEqualTo(100);
        assertThat(config.api().maxLimit()).isEqualTo(1000);
        assertThat(config.metrics().tableScores()).isTrue();
        assertThat(config.metrics().refreshInterval()).isEqualTo(Duration.ofMinutes(1));
        PolicyBook book = PolicyConfiguration.toPolicyBook(config, Map.<String, String>of().keySet());
        assertThat(book.patterns()).isEmpty();
    }

    @Test
    void globalAndPatternOverridesBecomeThePolicyBook() {
        Map<String, String> properties = Map.of(
                "cryo.scorer.checks.\"small-files\".warning", "0.3",
                "cryo.scorer.checks.snapshot-age.critical", "P60D",
                "cryo.scorer.checks.\"orphan-files\".warning-bytes", "2GiB",
                "cryo.scorer.policies.\"analytics.*\".checks.\"small-files\".critical", "0.6",
                "cryo.scorer.policies.\"analytics.*\".checks.\"stale-statistics\".enabled", "false");

        PolicyBook book = book(properties);
        TablePolicy policy = book.effectiveFor(TableId.parse("lake.analytics.events"), Map.of());

        assertThat(book.patterns()).containsExactly("analytics.*");
        assertThat(policy.check(Check.SMALL_FILES).limit(Setting.WARNING).orElseThrow().value()).isEqualTo(0.3);
        assertThat(policy.check(Check.SMALL_FILES).limit(Setting.WARNING).orElseThrow().key())
                .isEqualTo("cryo.scorer.checks.\"small-files\".warning");
        assertThat(policy.check(Check.SMALL_FILES).limit(Setting.CRITICAL).orElseThrow().source())
                .isEqualTo(Source.pattern("analytics.*"));
        assertThat(policy.check(Check.SNAPSHOT_AGE).limit(Setting.CRITICAL).orElseThrow().value()).isEqualTo(60 * 86_400.0);
        assertThat(policy.check(Check.ORPHAN_FILES).limit(Setting.WARNING_BYTES).orElseThrow().value())
                .isEqualTo(2.0 * 1024 * 1024 * 1024);
        assertThat(policy.check(Check.STALE_STATISTICS).isEnabled()).isFalse();
    }

    @Test
    void anInvalidOverrideStopsStartupNamingTheKey() {
        assertThatThrownBy(() -> book(Map.of("cryo.scorer.checks.\"small-files\".warning", "0.7")))
                .isInstanceOf(CryoException.class)
                .hasMessage("Cannot use cryo.scorer.checks.\"small-files\".warning=70 %: the warning limit 70 % "
                        + "(cryo.scorer.checks.\"small-files\".warning) is above the critical limit 50 % (default) of "
                        + "small-files; a check warns before it turns critical");
        assertThatThrownBy(() -> book(Map.of("cryo.scorer.checks.\"smallfiles\".warning", "0.3")))
                .hasMessageStartingWith("Cannot use cryo.scorer.checks.\"smallfiles\".warning: unknown check 'smallfiles'");
        assertThatThrownBy(() -> book(Map.of("cryo.scorer.checks.\"file-count\".warnig", "5000")))
                .hasMessage("Cannot use cryo.scorer.checks.\"file-count\".warnig: unknown setting 'warnig'; expected one "
                        + "of enabled, warning, critical, warning-bytes, critical-bytes");
        assertThatThrownBy(() -> book(Map.of("cryo.scorer.policies.\"a.*\".file-count.warning", "5000")))
                .hasMessage("Cannot use cryo.scorer.policies.\"a.*\".file-count.warning: expected "
                        + "cryo.scorer.policies.\"<pattern>\".checks.\"<check>\".<setting>");
        assertThatThrownBy(() -> book(Map.of("cryo.scorer.policies.\"a.*\".checks.\"file-count\".warning", "many")))
                .hasMessage("Cannot use cryo.scorer.policies.\"a.*\".checks.\"file-count\".warning=many: 'many' is not a count");
    }

    private static PolicyBook book(Map<String, String> properties) {
        SmallRyeConfig config = mapping(properties);
        return PolicyConfiguration.toPolicyBook(config.getConfigMapping(ScorerConfig.class), config.getPropertyNames());
    }

    private static SmallRyeConfig mapping(Map<String, String> properties) {
        // As in Quarkus, the mapping itself does not reject unknown names: PolicyConfiguration does, with its own message.
        return new SmallRyeConfigBuilder()
                .withDefaultValue("smallrye.config.mapping.validate-unknown", "false")
                .withMapping(ScorerConfig.class)
                .withSources(new PropertiesConfigSource(properties, "test", 100))
                .build();
    }
}
