package dev.cryo.audit.messaging;

import dev.cryo.audit.config.AuditChannelsConfigSource;
import dev.cryo.audit.config.AuditConfig;
import dev.cryo.audit.domain.AuditTopics;
import dev.cryo.platform.messaging.KafkaConnection;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.logging.Log;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.eclipse.microprofile.config.Config;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * How far ingestion trails each topic: for every partition, the records between the broker's end
 * offset and the next one the audit has to store. "Stored" is the later of the group's committed
 * offset (every instance's work) and what this instance stored itself (commits trail by a few
 * seconds). Published as the gauge {@code cryo.audit.ingest.lag{topic}}.
 */
@ApplicationScoped
public class IngestLag {

    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(10);

    /**
     * The lag of every topic, and when it was measured.
     *
     * @param recordsByTopic records not yet stored, per topic
     * @param measuredAt when the broker was asked
     */
    public record Snapshot(Map<String, Long> recordsByTopic, Instant measuredAt) {
        public Snapshot {
            recordsByTopic = Map.copyOf(recordsByTopic);
        }

        public long total() {
            return recordsByTopic.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    private final Config config;
    private final KafkaConnection kafka;
    private final Clock clock;
    private final Duration refreshInterval;
    private final Map<TopicPartition, Long> storedNext = new ConcurrentHashMap<>();
    private volatile Admin admin;
    private volatile Snapshot last;
    private Instant lastAttempt;
    private RuntimeException lastFailure;

    IngestLag(Config config, KafkaConnection kafka, AuditConfig auditConfig, MeterRegistry registry, Clock clock) {
        this.config = config;
        this.kafka = kafka;
        this.clock = clock;
        this.refreshInterval = auditConfig.ingest().lagRefreshInterval();
        for (String topic : AuditTopics.all()) {
            Gauge.builder("cryo.audit.ingest.lag", this, lag -> lag.recordsOf(topic))
                    .description("Records on the topic that the audit has not stored yet")
                    .tag("topic", topic)
                    .baseUnit("records")
                    .register(registry);
        }
    }

    /** The lag of one topic for the gauge; NaN (no sample) while Kafka cannot be asked. */
    private double recordsOf(String topic) {
        try {
            return current().recordsByTopic().getOrDefault(topic, 0L);
        } catch (RuntimeException e) {
            return Double.NaN;
        }
    }

    /** Notes that this instance stored a record. */
    void stored(String topic, int partition, long offset) {
        storedNext.merge(new TopicPartition(topic, partition), offset + 1, Math::max);
    }

    /**
     * The lag, measured at most {@code cryo.audit.ingest.lag-refresh-interval} ago. While Kafka does
     * not answer, the last measurement stands (and the broker is asked again once per interval).
     */
    public synchronized Snapshot current() {
        Instant now = clock.instant();
        boolean due = lastAttempt == null || lastAttempt.plus(refreshInterval).isBefore(now);
        if (due) {
            lastAttempt = now;
            try {
                last = measure();
                lastFailure = null;
            } catch (RuntimeException e) {
                Log.warnf("Cannot measure the ingest lag: %s", e.getMessage());
                lastFailure = e;
            }
        }
        if (last == null) {
            throw lastFailure != null ? lastFailure : new IllegalStateException("Cannot report the ingest lag: not measured yet");
        }
        return last;
    }

    /** The lag now, asking the broker whatever the age of the last measurement. */
    public synchronized Snapshot measureNow() {
        lastAttempt = clock.instant();
        last = measure();
        lastFailure = null;
        return last;
    }

    /**
     * The offsets up to which a consumer group committed, per partition of the given topics: a
     * rebuild waits for the live store to reach them.
     */
    public Map<TopicPartition, Long> storedOffsets(Set<TopicPartition> partitions) {
        Map<TopicPartition, Long> committed = committedOffsets(partitions);
        Map<TopicPartition, Long> stored = new HashMap<>();
        for (TopicPartition partition : partitions) {
            stored.put(partition, Math.max(committed.getOrDefault(partition, 0L), storedNext.getOrDefault(partition, 0L)));
        }
        return stored;
    }

    private Snapshot measure() {
        Admin client = admin();
        try {
            Map<String, TopicDescription> topics = client.describeTopics(AuditTopics.all()).allTopicNames()
                    .get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            List<TopicPartition> partitions = new ArrayList<>();
            topics.values().forEach(description -> description.partitions()
                    .forEach(info -> partitions.add(new TopicPartition(description.name(), info.partition()))));
            Map<TopicPartition, Long> end = offsets(client, partitions, OffsetSpec.latest());
            Map<TopicPartition, Long> start = offsets(client, partitions, OffsetSpec.earliest());
            Map<TopicPartition, Long> committed = committedOffsets(Set.copyOf(partitions));
            Map<String, Long> lag = new TreeMap<>();
            for (TopicPartition partition : partitions) {
                long next = Math.max(Math.max(committed.getOrDefault(partition, 0L), storedNext.getOrDefault(partition, 0L)),
                        start.getOrDefault(partition, 0L));
                lag.merge(partition.topic(), Math.max(0, end.getOrDefault(partition, 0L) - next), Long::sum);
            }
            return new Snapshot(lag, clock.instant());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Cannot measure the ingest lag: interrupted", e);
        } catch (Exception e) {
            throw new IllegalStateException("Cannot measure the ingest lag: Kafka did not answer: " + e.getMessage(), e);
        }
    }

    private Map<TopicPartition, Long> committedOffsets(Set<TopicPartition> partitions) {
        Map<String, List<TopicPartition>> byGroup = partitions.stream()
                .collect(Collectors.groupingBy(partition -> groupOf(partition.topic()), LinkedHashMap::new, Collectors.toList()));
        Map<TopicPartition, Long> committed = new HashMap<>();
        try {
            for (Map.Entry<String, List<TopicPartition>> group : byGroup.entrySet()) {
                Map<TopicPartition, OffsetAndMetadata> offsets = admin().listConsumerGroupOffsets(group.getKey())
                        .partitionsToOffsetAndMetadata().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                for (TopicPartition partition : group.getValue()) {
                    OffsetAndMetadata offset = offsets.get(partition);
                    if (offset != null) {
                        committed.put(partition, offset.offset());
                    }
                }
            }
            return committed;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Cannot read committed offsets: interrupted", e);
        } catch (Exception e) {
            throw new IllegalStateException("Cannot read committed offsets: Kafka did not answer: " + e.getMessage(), e);
        }
    }

    /** The consumer group that reads a topic, as configured for its channel. */
    String groupOf(String topic) {
        String channel = AuditTopics.channel(topic);
        return config.getOptionalValue(AuditChannelsConfigSource.incoming(channel, "group.id"), String.class)
                .orElseGet(() -> config.getValue("mp.messaging.connector.smallrye-kafka.group.id", String.class));
    }

    private static Map<TopicPartition, Long> offsets(Admin client, List<TopicPartition> partitions, OffsetSpec spec)
            throws Exception {
        Map<TopicPartition, OffsetSpec> request = partitions.stream().collect(Collectors.toMap(p -> p, p -> spec));
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> result = client.listOffsets(request).all()
                .get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        return result.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, entry -> entry.getValue().offset()));
    }

    private Admin admin() {
        Admin client = admin;
        if (client == null) {
            synchronized (this) {
                if (admin == null) {
                    Map<String, Object> settings = kafka.settings();
                    settings.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) ADMIN_TIMEOUT.toMillis());
                    settings.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) ADMIN_TIMEOUT.toMillis());
                    settings.put(AdminClientConfig.CLIENT_ID_CONFIG, "cryo-audit-lag");
                    admin = Admin.create(settings);
                }
                client = admin;
            }
        }
        return client;
    }

    @PreDestroy
    void close() {
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
        }
    }
}
