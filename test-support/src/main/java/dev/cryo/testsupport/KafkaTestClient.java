package dev.cryo.testsupport;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A plain Kafka client for tests on the real broker: produce raw records, read a topic from
 * its end (what arrives after a mark) or from its beginning, create topics.
 */
public final class KafkaTestClient implements AutoCloseable {

    private static final int MAX_RECORD_BYTES = 8 * 1024 * 1024;

    private final KafkaProducer<String, byte[]> producer;

    public KafkaTestClient() {
        Map<String, Object> settings = Infrastructure.kafkaAdminClient();
        settings.put(ProducerConfig.ACKS_CONFIG, "all");
        settings.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "zstd");
        settings.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, MAX_RECORD_BYTES);
        producer = new KafkaProducer<>(settings, new StringSerializer(), new ByteArraySerializer());
    }

    public RecordMetadata send(ProducerRecord<String, byte[]> record) {
        try {
            return producer.send(record).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("Cannot send to " + record.topic() + ": " + e.getMessage(), e);
        }
    }

    /** The end offsets of every partition of the topics now: read after a mark to see only new records. */
    public Map<TopicPartition, Long> mark(String... topics) {
        try (KafkaConsumer<String, byte[]> consumer = consumer()) {
            List<TopicPartition> partitions = partitions(consumer, List.of(topics));
            return new HashMap<>(consumer.endOffsets(partitions));
        }
    }

    /**
     * Reads records after the mark until {@code until} holds for the records read so far, or fails
     * after the timeout with what it saw.
     */
    public List<ConsumerRecord<String, byte[]>> readAfter(Map<TopicPartition, Long> mark, Duration timeout,
                                                          Predicate<List<ConsumerRecord<String, byte[]>>> until) {
        try (KafkaConsumer<String, byte[]> consumer = consumer()) {
            consumer.assign(mark.keySet());
            mark.forEach(consumer::seek);
            List<ConsumerRecord<String, byte[]>> read = new ArrayList<>();
            Instant deadline = Instant.now().plus(timeout);
            while (!until.test(read)) {
                if (Instant.now().isAfter(deadline)) {
                    throw new AssertionError("Timed out after " + timeout + " reading " + mark.keySet()
                            + "; read " + read.size() + " records");
                }
                consumer.poll(Duration.ofMillis(200)).forEach(read::add);
            }
            return read;
        }
    }

    /**
     * Every record a topic gained since the mark (possibly none): the topic's end offsets now, read
     * back from the mark. Other writers may have added records meanwhile, so callers check what
     * is there rather than how many.
     */
    public List<ConsumerRecord<String, byte[]>> readGainedSince(Map<TopicPartition, Long> mark, String topic,
                                                                Duration timeout) {
        Map<TopicPartition, Long> end = mark(topic);
        long gained = end.entrySet().stream()
                .mapToLong(entry -> entry.getValue() - mark.getOrDefault(entry.getKey(), 0L)).sum();
        return gained == 0 ? List.of() : readAfter(mark, timeout, records -> records.size() >= gained);
    }

    /**
     * Commits, for a consumer group that has no members yet, the end offsets of every partition of
     * the topics: the group then reads exactly what is published from now on. With
     * {@code auto.offset.reset=latest} alone, a partition's start is fixed only at its first fetch,
     * so records sent between the assignment and that fetch would be skipped.
     */
    public static void startGroupAtEnd(String group, String... topics) {
        try (KafkaConsumer<String, byte[]> consumer = consumer();
             Admin admin = Admin.create(Infrastructure.kafkaAdminClient())) {
            Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
            consumer.endOffsets(partitions(consumer, List.of(topics)))
                    .forEach((partition, end) -> offsets.put(partition, new OffsetAndMetadata(end)));
            admin.alterConsumerGroupOffsets(group, offsets).all().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("Cannot start group " + group + " at the end of " + List.of(topics)
                    + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted starting group " + group, e);
        }
    }

    /** Creates topics that do not exist yet (the local broker does not auto-create). */
    public static void createTopics(int partitions, String... topics) {
        try (Admin admin = Admin.create(Infrastructure.kafkaAdminClient())) {
            for (String topic : topics) {
                try {
                    admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1)
                            .configs(Map.of("max.message.bytes", String.valueOf(MAX_RECORD_BYTES)))))
                            .all().get(30, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new IllegalStateException("Cannot create topic " + topic + ": " + e.getMessage(), e);
                    }
                }
            }
        } catch (InterruptedException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("Cannot create topics: " + e.getMessage(), e);
        }
    }

    private static KafkaConsumer<String, byte[]> consumer() {
        Map<String, Object> settings = Infrastructure.kafkaAdminClient();
        settings.put(ConsumerConfig.GROUP_ID_CONFIG, "test-reader-" + UUID.randomUUID());
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        settings.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, MAX_RECORD_BYTES);
        settings.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, 4 * MAX_RECORD_BYTES);
        return new KafkaConsumer<>(settings, new StringDeserializer(), new ByteArrayDeserializer());
    }

    private static List<TopicPartition> partitions(KafkaConsumer<String, byte[]> consumer, Collection<String> topics) {
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : topics) {
            consumer.partitionsFor(topic, Duration.ofSeconds(30))
                    .forEach(info -> partitions.add(new TopicPartition(topic, info.partition())));
        }
        return partitions;
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(10));
    }
}
