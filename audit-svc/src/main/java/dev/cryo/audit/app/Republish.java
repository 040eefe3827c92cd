package dev.cryo.audit.app;

import dev.cryo.audit.AuditErrorCode;
import dev.cryo.audit.domain.AuditFilter;
import dev.cryo.audit.domain.AuditRecord;
import dev.cryo.audit.domain.AuditRow;
import dev.cryo.audit.domain.RecordHeader;
import dev.cryo.audit.domain.StoredHeaders;
import dev.cryo.audit.persistence.AuditQueries;
import dev.cryo.contracts.Topics;
import dev.cryo.platform.error.CryoException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Sends stored events of a time range, in chain order, to {@code cryo.replay.v1} for consumers
 * that want to reprocess them. Each record keeps its original key, value and headers ({@code ce_id},
 * {@code ce_time}, ... untouched) and gains headers saying where it came from and who replayed it.
 * The record timestamp is the replay's (the original one is in a header), so topic retention counts
 * from the replay.
 */
final class Republish {

    static final String HEADER_REPLAY_ID = "cryo-replay-id";
    static final String HEADER_REPLAYED_AT = "cryo-replayed-at";
    static final String HEADER_REPLAYED_BY = "cryo-replayed-by";
    static final String HEADER_AUDIT_ID = "cryo-audit-id";
    static final String HEADER_ORIGINAL_TOPIC = "cryo-original-topic";
    static final String HEADER_ORIGINAL_PARTITION = "cryo-original-partition";
    static final String HEADER_ORIGINAL_OFFSET = "cryo-original-offset";
    static final String HEADER_ORIGINAL_TIMESTAMP = "cryo-original-timestamp";

    /**
     * What a re-publication did.
     *
     * @param filter the events selected
     * @param recordsPublished records the broker acknowledged
     * @param durationMillis how long it took
     * @param recordsPerSecond publication rate
     */
    record Result(AuditFilter filter, long recordsPublished, long durationMillis, long recordsPerSecond) {
    }

    private final AuditQueries live;
    private final AuditFilter filter;
    private final UUID run;
    private final String actor;
    private final Map<String, Object> kafka;
    private final int fetchSize;
    private final Clock clock;

    Republish(AuditQueries live, AuditFilter filter, UUID run, String actor, Map<String, Object> connection, int fetchSize,
              Clock clock) {
        this.live = live;
        this.filter = filter;
        this.run = run;
        this.actor = actor;
        Map<String, Object> producer = new HashMap<>(connection);
        producer.putAll(Map.of(
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.COMPRESSION_TYPE_CONFIG, Topics.COMPRESSION,
                ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Topics.MAX_RECORD_BYTES,
                ProducerConfig.LINGER_MS_CONFIG, 20,
                ProducerConfig.CLIENT_ID_CONFIG, "cryo-audit-replay-" + run));
        this.kafka = Map.copyOf(producer);
        this.fetchSize = fetchSize;
        this.clock = clock;
    }

    Result run(ReplayProgress progress) {
        AtomicReference<Exception> failure = new AtomicReference<>();
        Instant replayedAt = clock.instant();
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(kafka, new StringSerializer(),
                new ByteArraySerializer())) {
            live.stream(filter, fetchSize, row -> {
                if (failure.get() != null) {
                    throw new CryoException(AuditErrorCode.KAFKA_UNAVAILABLE, "Cannot re-publish audit row " + row.id()
                            + " to " + Topics.REPLAY + ": " + failure.get().getMessage(), failure.get());
                }
                // send() blocks when the producer's buffer is full: the stream never runs ahead of the broker.
                producer.send(record(row, replayedAt), (metadata, error) -> {
                    if (error != null) {
                        failure.compareAndSet(null, error);
                    }
                });
                progress.advance(1);
            });
            producer.flush();
        }
        if (failure.get() != null) {
            throw new CryoException(AuditErrorCode.KAFKA_UNAVAILABLE, "Cannot re-publish to " + Topics.REPLAY + ": "
                    + failure.get().getMessage(), failure.get());
        }
        return new Result(filter, progress.done(), progress.elapsed().toMillis(), progress.rate());
    }

    private ProducerRecord<String, byte[]> record(AuditRow row, Instant replayedAt) {
        AuditRecord record = row.record();
        RecordHeaders headers = new RecordHeaders();
        for (RecordHeader header : StoredHeaders.fromJson(record.headersJson())) {
            headers.add(header.name(), header.value());
        }
        put(headers, HEADER_REPLAY_ID, run.toString());
        put(headers, HEADER_REPLAYED_AT, replayedAt.toString());
        put(headers, HEADER_REPLAYED_BY, actor);
        put(headers, HEADER_AUDIT_ID, String.valueOf(row.id()));
        put(headers, HEADER_ORIGINAL_TOPIC, record.position().topic());
        put(headers, HEADER_ORIGINAL_PARTITION, String.valueOf(record.position().partition()));
        put(headers, HEADER_ORIGINAL_OFFSET, String.valueOf(record.position().offset()));
        if (record.position().timestamp() != null) {
            put(headers, HEADER_ORIGINAL_TIMESTAMP, record.position().timestamp().toString());
        }
        byte[] value = record.payloadJson() != null ? record.payloadJson().getBytes(StandardCharsets.UTF_8)
                : record.rawValue();
        return new ProducerRecord<>(Topics.REPLAY, null, null, record.position().key(), value, headers);
    }

    private static void put(RecordHeaders headers, String name, String value) {
        headers.add(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
