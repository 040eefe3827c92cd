package dev.cryo.contracts.kafka;

import dev.cryo.contracts.Topics;
import dev.cryo.testsupport.Infrastructure;
import dev.cryo.testsupport.NeedsInfrastructure;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The local broker of {@code ./cryo infra up} enforces {@link KafkaPrincipals}: no one without credentials,
 * with a wrong password or with another service's credentials can put a job on {@value Topics#JOBS_ADMITTED},
 * the channel that makes executors rewrite and delete files.
 */
@NeedsInfrastructure(Infrastructure.Component.KAFKA)
class KafkaAuthorizationTest {

    @BeforeAll
    static void theBrokerHasCredentials() {
        assertThat(Infrastructure.kafkaPassword("cryo-governor"))
                .as("the local broker's credentials (%s writes them to .cryo-runtime/kafka/credentials.properties)",
                        Infrastructure.START_COMMAND)
                .isNotEmpty();
    }

    @Test
    void aClientWithoutCredentialsCannotProduceAnAdmittedJob() {
        Map<String, Object> anonymous = new HashMap<>(Map.of("bootstrap.servers", Infrastructure.kafkaBootstrapServers()));

        assertThatThrownBy(() -> send(anonymous, Topics.JOBS_ADMITTED))
                .as("a plaintext client on the SASL listener never gets its metadata")
                .isInstanceOf(org.apache.kafka.common.errors.TimeoutException.class);
    }

    @Test
    void aWrongPasswordIsRefusedAsSuch() {
        Map<String, Object> forged = Infrastructure.kafkaClient("cryo-governor");
        forged.put("sasl.jaas.config", KafkaClientSecurity.jaas("cryo-governor", "not-the-password"));

        assertThatThrownBy(() -> send(forged, Topics.JOBS_ADMITTED))
                .isInstanceOf(SaslAuthenticationException.class)
                .hasMessageContaining("invalid credentials");
    }

    @Test
    void noOtherServiceCanProduceAnAdmittedJob() {
        for (String principal : KafkaPrincipals.all().keySet()) {
            if (principal.equals("cryo-governor")) {
                continue;
            }
            assertThatThrownBy(() -> send(Infrastructure.kafkaClient(principal), Topics.JOBS_ADMITTED))
                    .as(principal).isInstanceOf(TopicAuthorizationException.class);
        }
    }

    @Test
    void theExecutorWritesOnlyResultsAndReadsOnlyInItsOwnGroups() {
        Map<String, Object> executor = Infrastructure.kafkaClient("cryo-executor");

        assertThatThrownBy(() -> send(executor, Topics.PLANS)).isInstanceOf(TopicAuthorizationException.class);
        assertThatThrownBy(() -> send(executor, Topics.deadLetter("governor"))).isInstanceOf(TopicAuthorizationException.class);
        assertThatThrownBy(() -> poll(executor, "cryo-governor", Topics.JOBS_ADMITTED))
                .isInstanceOf(GroupAuthorizationException.class);
        assertThatThrownBy(() -> poll(executor, "cryo-executor-acl-test", Topics.PLANS))
                .isInstanceOf(TopicAuthorizationException.class);
    }

    @Test
    void thePrincipalThatMayWriteATopicDoes() throws Exception {
        // the reporter's table changes: what a writer's commit reporter sends (the scanner rejects this one as unreadable)
        assertThat(send(Infrastructure.kafkaClient(KafkaPrincipals.REPORTER), Topics.TABLE_CHANGED)).isNotNull();
    }

    private static Object send(Map<String, Object> connection, String topic) throws Exception {
        Map<String, Object> settings = new HashMap<>(connection);
        settings.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 5000);
        settings.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 10000);
        settings.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000);
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(settings, new StringSerializer(), new ByteArraySerializer())) {
            return producer.send(new ProducerRecord<>(topic, "acl-test.not.a-table", "{}".getBytes(StandardCharsets.UTF_8)))
                    .get(15, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw (Exception) e.getCause();
        }
    }

    private static void poll(Map<String, Object> connection, String group, String topic) {
        Map<String, Object> settings = new HashMap<>(connection);
        settings.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        settings.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10000);
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(settings, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(500));
            }
        }
        throw new AssertionError("polled " + topic + " in group " + group + " for 20 s without being refused");
    }
}
