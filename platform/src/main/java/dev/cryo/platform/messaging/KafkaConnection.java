package dev.cryo.platform.messaging;

import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.eclipse.microprofile.config.Config;
import org.jboss.logging.Logger;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * How this service reaches Kafka: the bootstrap servers and the security settings ({@code kafka.*}
 * configuration: protocol, SASL, TLS) that its channels use, for the clients the service builds itself
 * (dead-letter re-drives, the audit's anchors, lag and replays), so that every client authenticates as the
 * service's principal. At start it refuses a SASL protocol without a password, and a password the broker
 * rejects, with what to set; a broker that does not answer yet is left to the channels, which retry.
 */
@ApplicationScoped
public class KafkaConnection {

    private static final Logger LOG = Logger.getLogger(KafkaConnection.class);
    private static final String PREFIX = "kafka.";

    private final Map<String, Object> settings = new HashMap<>();
    private final String user;
    private final String password;

    /** The connection a configuration describes (the bean's, or a test's). */
    public static KafkaConnection of(Config config) {
        return new KafkaConnection(config);
    }

    KafkaConnection(Config config) {
        for (String name : config.getPropertyNames()) {
            if (name.startsWith(PREFIX) && isConnectionSetting(name.substring(PREFIX.length()))) {
                config.getOptionalValue(name, String.class)
                        .ifPresent(value -> settings.put(name.substring(PREFIX.length()), value));
            }
        }
        this.user = config.getOptionalValue("cryo.kafka.user", String.class).orElse("");
        this.password = config.getOptionalValue("cryo.kafka.password", String.class).orElse("");
    }

    private static boolean isConnectionSetting(String key) {
        return key.equals(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG) || key.equals("security.protocol")
                || key.startsWith("sasl.") || key.startsWith("ssl.");
    }

    /** A copy of the connection settings, to which a client adds its own. */
    public Map<String, Object> settings() {
        return new HashMap<>(settings);
    }

    public String bootstrapServers() {
        return String.valueOf(settings.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG));
    }

    void verifyAtStart(@Observes @Priority(1) StartupEvent event) {
        verify();
    }

    /** Refuses what cannot work: SASL without a password, a password the login line cannot carry or the broker rejects. */
    public void verify() {
        String protocol = String.valueOf(settings.getOrDefault("security.protocol", "PLAINTEXT"));
        if (!protocol.startsWith("SASL")) {
            LOG.warnf("Kafka security protocol %s: this service does not authenticate to Kafka", protocol);
            return;
        }
        if (password.isEmpty()) {
            throw new IllegalStateException("Kafka needs a password for principal " + user + " (security protocol "
                    + protocol + "): set CRYO_KAFKA_PASSWORD (./cryo infra up keeps the local broker's in "
                    + ".cryo-runtime/kafka/credentials.properties), or CRYO_KAFKA_SECURITY_PROTOCOL=PLAINTEXT for a "
                    + "broker without authentication");
        }
        if (password.contains("\"") || password.contains("\\")) {
            throw new IllegalStateException("The Kafka password of principal " + user
                    + " contains a quote or a backslash, which the SASL login line cannot carry: choose another");
        }
        Map<String, Object> probe = settings();
        probe.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000);
        probe.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10000);
        try (Admin admin = Admin.create(probe)) {
            admin.describeCluster().clusterId().get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof AuthenticationException || e.getCause() instanceof AuthorizationException) {
                throw new IllegalStateException("Kafka at " + bootstrapServers() + " refused principal " + user + " ("
                        + e.getCause().getMessage() + "): check CRYO_KAFKA_USER and CRYO_KAFKA_PASSWORD", e.getCause());
            }
            LOG.warnf("Kafka at %s did not answer at start (%s): the channels keep trying", bootstrapServers(),
                    e.getCause().getMessage());
        } catch (TimeoutException e) {
            LOG.warnf("Kafka at %s did not answer within 10 s at start: the channels keep trying", bootstrapServers());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
