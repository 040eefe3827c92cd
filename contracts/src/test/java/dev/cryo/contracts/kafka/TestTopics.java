package dev.cryo.contracts.kafka;

import dev.cryo.testsupport.Infrastructure;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import dev.cryo.contracts.Topics;

import static org.awaitility.Awaitility.await;

/** A throw-away topic on the real broker, with a producer and a consumer configured as services are. */
final class TestTopics implements AutoCloseable {

    final String topic = "cryo.test.contracts-" + UUID.randomUUID();
    private final Admin admin;

    TestTopics() throws Exception {
        admin = Admin.create(Infrastructure.kafkaAdminClient());
        admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1)
                        .configs(Map.of("max.message.bytes", String.valueOf(Topics.MAX_RECORD_BYTES)))))
                .all().get(30, TimeUnit.SECONDS);
    }

    KafkaProducer<String, byte[]> producer() {
        return new KafkaProducer<>(Infrastructure.kafkaAdminClient(Map.of(
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.COMPRESSION_TYPE_CONFIG, Topics.COMPRESSION,
                ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Topics.MAX_RECORD_BYTES)),
                new StringSerializer(), new ByteArraySerializer());
    }

    List<ConsumerRecord<String, byte[]>> consume(int count) {
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Infrastructure.kafkaAdminClient(Map.of(
                ConsumerConfig.GROUP_ID_CONFIG, "contracts-test-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.FETCH_MAX_BYTES_CONFIG, Topics.MAX_RECORD_BYTES,
                ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, Topics.MAX_RECORD_BYTES)),
                new StringDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic));
            List<ConsumerRecord<String, byte[]>> received = new ArrayList<>();
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(received::add);
                return received.size() >= count;
            });
            return received;
        }
    }

    @Override
    public void close() throws Exception {
        try {
            admin.deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
        } finally {
            admin.close();
        }
    }
}
