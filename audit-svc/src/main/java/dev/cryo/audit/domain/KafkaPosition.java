package dev.cryo.audit.domain;

import java.time.Instant;

import static java.util.Objects.requireNonNull;

/**
 * Where a record sits in Kafka.
 *
 * @param topic the topic
 * @param partition the partition
 * @param offset the offset
 * @param key the record key (optional)
 * @param timestamp the record timestamp (optional)
 */
public record KafkaPosition(String topic, int partition, long offset, String key, Instant timestamp) {
    public KafkaPosition {
        requireNonNull(topic, "topic is null");
    }
}
