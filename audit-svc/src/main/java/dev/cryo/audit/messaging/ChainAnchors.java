package dev.cryo.audit.messaging;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.cryo.audit.config.AuditConfig;
import dev.cryo.audit.domain.AnchorCheck;
import dev.cryo.audit.domain.ChainAnchor;
import dev.cryo.audit.domain.ChainHead;
import dev.cryo.audit.persistence.AuditStore;
import dev.cryo.contracts.Topics;
import dev.cryo.platform.messaging.KafkaConnection;
import io.quarkus.logging.Log;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Anchors the audit chain outside the database: every {@code cryo.audit.anchor.interval} the
 * chain's head (last id and hash), when it moved, goes to the compacted topic
 * {@code cryo.audit-anchors.v1} under the schema's name ({@code cryo.audit.anchor.key}). Verify reads the latest anchor back and
 * checks that the stored chain still leads to it: a rewrite re-chained by whoever holds the
 * database changes the anchored row's hash. The anchors are only as safe as the broker's write
 * access to that topic.
 */
@ApplicationScoped
public class ChainAnchors {

    private static final Duration KAFKA_TIMEOUT = Duration.ofSeconds(10);
    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

    private final AuditStore store;
    private final Clock clock;
    private final KafkaConnection kafka;
    private final Duration interval;
    private final String key;
    private ScheduledExecutorService timer;
    private KafkaProducer<String, byte[]> producer;
    private ChainHead anchored;

    ChainAnchors(AuditStore store, AuditConfig config, KafkaConnection kafka, Clock clock) {
        this.store = store;
        this.clock = clock;
        this.kafka = kafka;
        this.interval = config.anchor().interval();
        this.key = config.anchor().key().orElse(store.schema());
    }

    void start(@Observes StartupEvent started) {
        if (interval.isZero() || interval.isNegative()) {
            Log.warn("The audit chain is not anchored (cryo.audit.anchor.interval=PT0S): verify cannot tell a re-chained"
                    + " rewrite by whoever holds the database");
            return;
        }
        timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "cryo-audit-anchor");
            thread.setDaemon(true);
            return thread;
        });
        timer.scheduleWithFixedDelay(this::anchorQuietly, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    void stop(@Observes ShutdownEvent stopped) {
        if (timer != null) {
            timer.shutdownNow();
        }
        synchronized (this) {
            if (producer != null) {
                producer.close(KAFKA_TIMEOUT);
            }
        }
    }

    private void anchorQuietly() {
        try {
            anchorNow();
        } catch (RuntimeException e) {
            Log.warnf("Cannot anchor the audit chain now; trying again in %s: %s", interval, e.getMessage());
        }
    }

    /** Anchors the head now if it moved since the last anchor; returns the anchor written, if any. */
    public synchronized Optional<ChainAnchor> anchorNow() {
        ChainHead head = store.head();
        if (head.lastId() == 0 || head.equals(anchored)) {
            return Optional.empty();
        }
        ChainAnchor anchor = new ChainAnchor(key, head.lastId(), head.lastHash(), clock.instant());
        try {
            producer().send(new ProducerRecord<>(Topics.AUDIT_ANCHORS, anchor.store(), JSON.writeValueAsBytes(anchor)))
                    .get(KAFKA_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException("Cannot anchor the audit chain at row " + head.lastId() + " on "
                    + Topics.AUDIT_ANCHORS + ": " + e.getMessage(), e);
        }
        anchored = head;
        Log.debugf("Anchored the audit chain at row %d", head.lastId());
        return Optional.of(anchor);
    }

    /** Checks the stored chain against the latest anchor of this store. */
    public AnchorCheck check() {
        Optional<ChainAnchor> latest;
        try {
            latest = latest();
        } catch (RuntimeException e) {
            return AnchorCheck.unavailable(e.getMessage());
        }
        return AnchorCheck.of(latest, store.head(), latest.flatMap(anchor -> store.storedHash(anchor.lastId())));
    }

    /** The newest anchor of this store: the topic read from its start to its end now. */
    Optional<ChainAnchor> latest() {
        Map<String, Object> settings = kafka.settings();
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        settings.put(ConsumerConfig.CLIENT_ID_CONFIG, "cryo-audit-anchor-reader");
        TopicPartition partition = new TopicPartition(Topics.AUDIT_ANCHORS, 0);
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(settings, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long end = consumer.endOffsets(List.of(partition), KAFKA_TIMEOUT).get(partition);
            ChainAnchor found = null;
            long deadline = System.nanoTime() + KAFKA_TIMEOUT.toNanos();
            while (consumer.position(partition, KAFKA_TIMEOUT) < end) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("reading " + Topics.AUDIT_ANCHORS + " took longer than " + KAFKA_TIMEOUT);
                }
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (key.equals(record.key())) {
                        // A tombstone forgets the anchors: what an operator writes after starting the log afresh.
                        found = record.value() == null ? null : read(record);
                    }
                }
            }
            return Optional.ofNullable(found);
        }
    }

    private static ChainAnchor read(ConsumerRecord<String, byte[]> record) {
        try {
            return JSON.readValue(record.value(), ChainAnchor.class);
        } catch (IOException e) {
            throw new IllegalStateException("anchor at offset " + record.offset() + " is not readable: " + e.getMessage(), e);
        }
    }

    private KafkaProducer<String, byte[]> producer() {
        if (producer == null) {
            Map<String, Object> settings = kafka.settings();
            settings.put(ProducerConfig.ACKS_CONFIG, "all");
            settings.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
            settings.put(ProducerConfig.CLIENT_ID_CONFIG, "cryo-audit-anchors");
            producer = new KafkaProducer<>(settings, new StringSerializer(), new ByteArraySerializer());
        }
        return producer;
    }
}
