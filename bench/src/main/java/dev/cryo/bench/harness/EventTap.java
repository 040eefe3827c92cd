package dev.cryo.bench.harness;

import dev.cryo.contracts.Topics;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.kafka.KafkaEnvelopes;
import dev.cryo.contracts.kafka.KafkaClientSecurity;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.io.Closeable;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Reads Cryo's outgoing topics (grades, admissions, job results) from their current end, without
 * a consumer group, and keeps the events of the benchmark's tables (the key's prefix) with the
 * time each arrived here.
 */
public final class EventTap implements Closeable {

    private static final List<String> TOPICS = List.of(Topics.TABLE_HEALTH, Topics.JOBS_ADMITTED, Topics.JOBS_RESULTS,
            Topics.TABLE_CHANGED);

    /** An event and when the tap received it. */
    public record Tapped(String topic, CryoEvent event, Instant receivedAt) {
    }

    private final KafkaConsumer<String, byte[]> consumer;
    private final String keyPrefix;
    private final List<Tapped> events = new CopyOnWriteArrayList<>();
    private final CountDownLatch assigned = new CountDownLatch(1);
    private final Thread thread;
    private volatile RuntimeException failure;

    /** Reads as {@code security}'s principal: an administrator's, since it reads every topic. */
    public EventTap(String bootstrap, KafkaClientSecurity security, String keyPrefix) {
        Properties properties = security.applyTo(new Properties());
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000");
        this.consumer = new KafkaConsumer<>(properties);
        this.keyPrefix = keyPrefix;
        this.thread = new Thread(this::loop, "bench-event-tap");
        thread.setDaemon(true);
        thread.start();
        try {
            if (!assigned.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("Cannot read Cryo's topics on " + bootstrap + ": no assignment in 60 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while starting the event tap", e);
        }
        if (failure != null) {
            throw failure;
        }
    }

    private void loop() {
        try {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : TOPICS) {
                consumer.partitionsFor(topic, Duration.ofSeconds(30))
                        .forEach(info -> partitions.add(new TopicPartition(topic, info.partition())));
            }
            consumer.assign(partitions);
            consumer.seekToEnd(partitions);
            partitions.forEach(consumer::position);
            assigned.countDown();
            while (!Thread.currentThread().isInterrupted()) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (record.key() == null || !record.key().startsWith(keyPrefix)) {
                        continue;
                    }
                    Instant now = Instant.now();
                    try {
                        EventEnvelope<CryoEvent> envelope = KafkaEnvelopes.fromRecord(record);
                        events.add(new Tapped(record.topic(), envelope.data(), now));
                    } catch (RuntimeException e) {
                        // a foreign or newer event type: not the benchmark's business
                    }
                }
            }
        } catch (WakeupException e) {
            // closing
        } catch (RuntimeException e) {
            failure = new IllegalStateException("Cannot read Cryo's topics: " + e.getMessage(), e);
            assigned.countDown();
        } finally {
            consumer.close(Duration.ofSeconds(2));
        }
    }

    /** Every tapped event of the given type that matches. */
    public <T extends CryoEvent> List<T> events(Class<T> type, Predicate<T> filter) {
        checkAlive();
        List<T> matching = new ArrayList<>();
        for (Tapped tapped : events) {
            if (type.isInstance(tapped.event()) && filter.test(type.cast(tapped.event()))) {
                matching.add(type.cast(tapped.event()));
            }
        }
        return matching;
    }

    public List<Tapped> tapped() {
        checkAlive();
        return List.copyOf(events);
    }

    private void checkAlive() {
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public void close() {
        consumer.wakeup();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
