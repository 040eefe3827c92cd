package dev.cryo.audit.messaging;

import dev.cryo.contracts.Topics;
import dev.cryo.platform.messaging.KafkaConnection;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Reads again, one at a time, the records whose values the audit's consumers left out for their
 * size ({@link DetachedBytesDeserializer}), and hands each to be stored before the next is read:
 * however many large records a backlog holds, the heap holds one of them.
 */
@ApplicationScoped
public class LargeValues {

    static final Duration READ_TIMEOUT = Duration.ofSeconds(30);

    private final KafkaConnection kafka;
    private KafkaConsumer<String, byte[]> consumer;

    LargeValues(KafkaConnection kafka) {
        this.kafka = kafka;
    }

    /**
     * Reads the record at that record's place in full and passes it to {@code store}, under a lock
     * that one large record at a time holds.
     *
     * @throws IllegalStateException when the record cannot be read within {@link #READ_TIMEOUT}
     *                               or is no longer in the topic
     */
    public synchronized void storeAlone(ConsumerRecord<String, byte[]> leftOut, Consumer<ConsumerRecord<String, byte[]>> store) {
        store.accept(read(new TopicPartition(leftOut.topic(), leftOut.partition()), leftOut.offset()));
    }

    private ConsumerRecord<String, byte[]> read(TopicPartition partition, long offset) {
        try {
            KafkaConsumer<String, byte[]> reader = consumer();
            reader.assign(List.of(partition));
            reader.seek(partition, offset);
            long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
            while (System.nanoTime() < deadline) {
                for (ConsumerRecord<String, byte[]> record : reader.poll(Duration.ofMillis(500))) {
                    if (record.offset() == offset) {
                        return record;
                    }
                    throw new IllegalStateException("Cannot read the large record " + partition + "@" + offset
                            + " again: the partition now starts at offset " + record.offset());
                }
            }
        } catch (KafkaException e) {
            throw new IllegalStateException("Cannot read the large record " + partition + "@" + offset + " again: "
                    + e.getMessage(), e);
        }
        throw new IllegalStateException("Cannot read the large record " + partition + "@" + offset + " again within "
                + READ_TIMEOUT.toSeconds() + " s");
    }

    private KafkaConsumer<String, byte[]> consumer() {
        if (consumer == null) {
            Map<String, Object> settings = kafka.settings();
            settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
            settings.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1);
            settings.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, Topics.MAX_RECORD_BYTES);
            settings.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, Topics.MAX_RECORD_BYTES);
            settings.put(ConsumerConfig.CLIENT_ID_CONFIG, "cryo-audit-large-value-reader");
            consumer = new KafkaConsumer<>(settings, new StringDeserializer(), new ByteArrayDeserializer());
        }
        return consumer;
    }

    @PreDestroy
    synchronized void close() {
        if (consumer != null) {
            consumer.close(Duration.ofSeconds(5));
            consumer = null;
        }
    }
}
