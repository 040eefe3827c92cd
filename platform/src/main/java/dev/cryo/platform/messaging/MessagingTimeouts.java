package dev.cryo.platform.messaging;

import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.ConfigSourceContext;
import io.smallrye.config.ConfigSourceFactory;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.PropertiesConfigSource;
import org.eclipse.microprofile.config.spi.ConfigSource;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One setting for how long every Cryo service rides out a broker that is down or restarting:
 * {@code cryo.messaging.publish-timeout} (default 5 minutes). {@link EventPublisher} waits that
 * long for the broker's acknowledgement, and this config source gives the Kafka clients of every
 * channel the same bound, so no client gives up earlier than the publish it serves:
 * <ul>
 *   <li>{@code delivery.timeout.ms} (producer; Kafka's default 2 minutes): a record waits in the
 *       producer, retried, until the broker is back;</li>
 *   <li>{@code default.api.timeout.ms} (consumer; Kafka's default 60 s): SmallRye's throttled
 *       commit strategy looks up a partition's committed offset with it when the first record of
 *       that partition arrives, and a timeout there fails the whole channel for good (seen on the
 *       executor's {@code cryo.jobs.admitted.v1} during a broker outage).</li>
 * </ul>
 * Ordinal 110: above the platform defaults (100), below a service's {@code application.properties}
 * (250), system properties and the environment, which can still set either Kafka key themselves.
 */
public class MessagingTimeouts implements ConfigSourceFactory {

    public static final String PUBLISH_TIMEOUT = "cryo.messaging.publish-timeout";
    static final Duration DEFAULT_PUBLISH_TIMEOUT = Duration.ofMinutes(5);
    /** Kafka refuses a delivery timeout below linger.ms + request.timeout.ms (30 s); one minute leaves room. */
    static final Duration MINIMUM_PUBLISH_TIMEOUT = Duration.ofMinutes(1);
    static final String CONNECTOR = "mp.messaging.connector.smallrye-kafka.";
    static final int ORDINAL = 110;

    @Override
    public Iterable<ConfigSource> getConfigSources(ConfigSourceContext context) {
        ConfigValue configured = context.getValue(PUBLISH_TIMEOUT);
        Duration timeout = publishTimeout(configured == null ? null : configured.getValue());
        String millis = Long.toString(timeout.toMillis());
        return List.of(new PropertiesConfigSource(Map.of(
                CONNECTOR + "delivery.timeout.ms", millis,
                CONNECTOR + "default.api.timeout.ms", millis), "cryo-messaging-timeouts", ORDINAL));
    }

    /** The configured publish timeout; a value too short for Kafka's own request timeout is refused with the reason. */
    static Duration publishTimeout(String configured) {
        if (configured == null || configured.isBlank()) {
            return DEFAULT_PUBLISH_TIMEOUT;
        }
        Duration timeout = DurationConverter.parseDuration(configured.strip());
        if (timeout == null || timeout.compareTo(MINIMUM_PUBLISH_TIMEOUT) < 0) {
            throw new IllegalArgumentException("Cannot configure Kafka: " + PUBLISH_TIMEOUT + " is " + configured
                    + "; it must be at least " + MINIMUM_PUBLISH_TIMEOUT + " (Kafka's request timeout is 30 s)."
                    + " Set it to how long a broker restart may take, e.g. PT5M");
        }
        return timeout;
    }
}
