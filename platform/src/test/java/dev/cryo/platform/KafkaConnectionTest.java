package dev.cryo.platform;

import dev.cryo.platform.messaging.KafkaConnection;
import dev.cryo.testsupport.Infrastructure;
import dev.cryo.testsupport.NeedsInfrastructure;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A service that cannot log in to Kafka does not start half-deaf: it says which principal, and what to set.
 * The clients a service builds itself carry the same settings as its channels.
 */
@NeedsInfrastructure(Infrastructure.Component.KAFKA)
class KafkaConnectionTest {

    @Test
    void saslWithoutAPasswordRefusesToStartNamingWhatToSet() {
        KafkaConnection connection = KafkaConnection.of(config("cryo-scanner", ""));

        assertThatThrownBy(connection::verify).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Kafka needs a password for principal cryo-scanner")
                .hasMessageContaining("CRYO_KAFKA_PASSWORD");
    }

    @Test
    void aPasswordTheBrokerRejectsRefusesToStart() {
        KafkaConnection connection = KafkaConnection.of(config("cryo-scanner", "not-the-password"));

        assertThatThrownBy(connection::verify).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("refused principal cryo-scanner")
                .hasMessageContaining("check CRYO_KAFKA_USER and CRYO_KAFKA_PASSWORD")
                .message().doesNotContain("not-the-password");
    }

    @Test
    void theServicesOwnCredentialsPassAndEveryClientGetsThem() {
        String password = Infrastructure.kafkaPassword("cryo-scanner");
        KafkaConnection connection = KafkaConnection.of(config("cryo-scanner", password));

        assertThatCode(connection::verify).doesNotThrowAnyException();
        assertThat(connection.settings()).containsEntry("security.protocol", "SASL_PLAINTEXT")
                .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                .containsEntry("bootstrap.servers", Infrastructure.kafkaBootstrapServers())
                .doesNotContainKey("group.id");
        assertThat((String) connection.settings().get("sasl.jaas.config")).contains("username=\"cryo-scanner\"");
    }

    @Test
    void aPasswordTheLoginLineCannotCarryIsRefused() {
        assertThatThrownBy(KafkaConnection.of(config("cryo-scanner", "a\"b"))::verify)
                .hasMessageContaining("contains a quote or a backslash");
    }

    private static org.eclipse.microprofile.config.Config config(String user, String password) {
        Map<String, String> values = new HashMap<>();
        values.put("kafka.bootstrap.servers", Infrastructure.kafkaBootstrapServers());
        values.put("kafka.security.protocol", "SASL_PLAINTEXT");
        values.put("kafka.sasl.mechanism", "SCRAM-SHA-512");
        values.put("kafka.sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
                + user + "\" password=\"" + password + "\";");
        values.put("kafka.group.id", "not-a-connection-setting");
        values.put("cryo.kafka.user", user);
        values.put("cryo.kafka.password", password);
        return new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(values, "test", 500)).build();
    }
}
