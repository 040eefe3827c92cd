package dev.cryo.platform;

import dev.cryo.platform.messaging.MessagingTimeouts;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.smallrye.config.PropertiesConfigSource;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** One setting, cryo.messaging.publish-timeout, bounds every Kafka client wait of a service. */
class MessagingTimeoutsTest {

    @Test
    void theKafkaClientTimeoutsFollowTheConfiguredPublishTimeout() {
        SmallRyeConfig config = config(Map.of(MessagingTimeouts.PUBLISH_TIMEOUT, "PT7M"));

        assertThat(config.getRawValue("mp.messaging.connector.smallrye-kafka.delivery.timeout.ms")).isEqualTo("420000");
        assertThat(config.getRawValue("mp.messaging.connector.smallrye-kafka.default.api.timeout.ms")).isEqualTo("420000");
    }

    @Test
    void withoutASettingTheTimeoutsAreFiveMinutesAndAnExplicitKafkaValueStillWins() {
        SmallRyeConfig config = config(Map.of("mp.messaging.connector.smallrye-kafka.delivery.timeout.ms", "123000"));

        assertThat(config.getRawValue("mp.messaging.connector.smallrye-kafka.default.api.timeout.ms")).isEqualTo("300000");
        assertThat(config.getRawValue("mp.messaging.connector.smallrye-kafka.delivery.timeout.ms")).isEqualTo("123000");
    }

    @Test
    void aPublishTimeoutShorterThanKafkasRequestTimeoutIsRefusedWithTheSetting() {
        assertThatThrownBy(() -> config(Map.of(MessagingTimeouts.PUBLISH_TIMEOUT, "10s")))
                .hasStackTraceContaining("Cannot configure Kafka: cryo.messaging.publish-timeout is 10s; it must be at least PT1M");
    }

    private static SmallRyeConfig config(Map<String, String> properties) {
        return new SmallRyeConfigBuilder()
                .withSources(new PropertiesConfigSource(properties, "test", 250))
                .withSources(new MessagingTimeouts())
                .build();
    }
}
