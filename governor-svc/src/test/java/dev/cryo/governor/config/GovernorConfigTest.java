package dev.cryo.governor.config;

import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class GovernorConfigTest {

    @Test
    void defaults() {
        SmallRyeConfig config = new SmallRyeConfigBuilder().withMapping(GovernorConfig.class).build();
        GovernorConfig governor = config.getConfigMapping(GovernorConfig.class);

        assertThat(governor.cooldown()).isEqualTo(Duration.ofMinutes(10));
        assertThat(governor.defaultEngine()).isEqualTo("native");
        assertThat(governor.lease()).isEqualTo(Duration.ofMinutes(2));
        assertThat(governor.maxAttempts()).isEqualTo(3);
        assertThat(governor.recheckInterval()).isEqualTo(Duration.ofSeconds(30));
        assertThat(governor.reevaluationInterval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(governor.slots().nativeEngine()).isEqualTo(2);
        assertThat(governor.slots().trino()).isEqualTo(1);
        assertThat(governor.slots().spark()).isEqualTo(1);
        assertThat(governor.trino().jdbcUrl()).isEmpty();
        assertThat(governor.trino().user()).isEqualTo("cryo");
        assertThat(governor.trino().password()).isEmpty();
        assertThat(governor.trino().maxForeignQueries()).isEqualTo(10);
        assertThat(governor.trino().loadCacheDuration()).isEqualTo(Duration.ofSeconds(5));
        assertThat(governor.trino().queryTimeout()).isEqualTo(Duration.ofSeconds(5));
    }
}
