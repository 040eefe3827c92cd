package dev.cryo.audit;

import dev.cryo.testsupport.Infrastructure;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Sends many records without waiting for each acknowledgement (KafkaTestClient sends one at a time,
 * which would take minutes for tens of thousands), then waits for all of them.
 */
public final class BulkProducer {

    /** Sends every record and returns once the broker acknowledged all of them. */
    public static void sendAll(List<ProducerRecord<String, byte[]>> records) {
        AtomicReference<Exception> failure = new AtomicReference<>();
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Infrastructure.kafkaAdminClient(Map.of(
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.COMPRESSION_TYPE_CONFIG, "zstd",
                ProducerConfig.LINGER_MS_CONFIG, 20,
                ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024)),
                new StringSerializer(), new ByteArraySerializer())) {
            for (ProducerRecord<String, byte[]> record : records) {
                producer.send(record, (metadata, error) -> {
                    if (error != null) {
                        failure.compareAndSet(null, error);
                    }
                });
            }
            producer.flush();
            producer.close(Duration.ofSeconds(30));
        }
        if (failure.get() != null) {
            throw new IllegalStateException("Cannot send " + records.size() + " records: " + failure.get().getMessage(),
                    failure.get());
        }
    }

    private BulkProducer() {
    }
}
