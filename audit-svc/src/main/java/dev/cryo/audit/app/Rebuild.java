package dev.cryo.audit.app;

import dev.cryo.audit.AuditErrorCode;
import dev.cryo.audit.domain.AuditTopics;
import dev.cryo.audit.domain.RawRecord;
import dev.cryo.audit.domain.VerifyReport;
import dev.cryo.audit.messaging.IngestLag;
import dev.cryo.audit.messaging.RawRecords;
import dev.cryo.audit.messaging.RecordExtractor;
import dev.cryo.audit.persistence.AuditStore;
import dev.cryo.audit.persistence.StoreComparator;
import dev.cryo.platform.error.CryoException;
import io.quarkus.logging.Log;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static java.util.Objects.requireNonNull;

/**
 * Rebuilds the audit log from Kafka into an empty schema, then compares it with the live store.
 * The scope is fixed when the rebuild starts: from the earliest retained offset (or the first
 * offset at or after {@code from}, by {@code offsetsForTimes}) to the end offset of that moment,
 * for every topic the audit ingests. Records go through the same extraction and the same append
 * as live ingestion.
 */
final class Rebuild {

    private static final Duration KAFKA_TIMEOUT = Duration.ofSeconds(30);

    /**
     * What a rebuild found.
     *
     * @param targetSchema the schema written
     * @param from the time it started reading from (absent: the earliest retained offsets)
     * @param recordsRead Kafka records read
     * @param rowsStored rows written to the target
     * @param duplicates records whose event id was already stored (redeliveries)
     * @param liveCaughtUp whether the live store had ingested every record of the scope when compared
     * @param comparison the two stores, side by side
     * @param liveChain the live store's chain, recomputed
     * @param rebuiltChain the rebuilt store's chain, recomputed
     * @param matches true when the contents are equal and both chains hold
     * @param durationMillis how long it took
     * @param recordsPerSecond read-and-store rate
     */
    record Result(String targetSchema, Instant from, long recordsRead, long rowsStored, long duplicates,
                  boolean liveCaughtUp, StoreComparator.Comparison comparison, VerifyReport liveChain,
                  VerifyReport rebuiltChain, boolean matches, long durationMillis, long recordsPerSecond) {
    }

    private final AuditStore live;
    private final AuditStore target;
    private final StoreComparator comparator;
    private final IngestLag lag;
    private final Map<String, Object> kafka;
    private final Map<String, Object> connection;
    private final Instant from;
    private final int batchSize;
    private final Duration catchUpTimeout;
    private final int verifyFetchSize;
    private final int maxReported;
    private final Clock clock;

    Rebuild(AuditStore live, AuditStore target, StoreComparator comparator, IngestLag lag, Map<String, Object> connection,
            Instant from, ReplaySettings settings, Clock clock) {
        this.live = requireNonNull(live, "live is null");
        this.target = requireNonNull(target, "target is null");
        this.comparator = comparator;
        this.lag = lag;
        this.connection = Map.copyOf(connection);
        Map<String, Object> consumer = new HashMap<>(connection);
        consumer.putAll(Map.of(
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, settings.batchSize(),
                ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 8 * 1024 * 1024,
                ConsumerConfig.CLIENT_ID_CONFIG, "cryo-audit-rebuild-" + target.schema()));
        this.kafka = Map.copyOf(consumer);
        this.from = from;
        this.batchSize = settings.batchSize();
        this.catchUpTimeout = settings.liveCatchUpTimeout();
        this.verifyFetchSize = settings.verifyFetchSize();
        this.maxReported = settings.maxReportedDifferences();
        this.clock = clock;
    }

    Result run(ReplayProgress progress) {
        long read = 0;
        long stored = 0;
        long duplicates = 0;
        List<StoreComparator.Range> scope;
        scope = scope();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(kafka, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            progress.total(scope.stream().mapToLong(range -> range.to() - range.from()).sum());
            Map<TopicPartition, Long> end = new HashMap<>();
            scope.forEach(range -> end.put(new TopicPartition(range.topic(), range.partition()), range.to()));
            consumer.assign(end.keySet());
            scope.forEach(range -> consumer.seek(new TopicPartition(range.topic(), range.partition()), range.from()));
            Set<TopicPartition> remaining = new HashSet<>(end.keySet());
            List<RawRecord> batch = new ArrayList<>();
            while (!remaining.isEmpty()) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    TopicPartition partition = new TopicPartition(record.topic(), record.partition());
                    if (record.offset() < end.get(partition)) {
                        batch.add(RawRecords.of(record));
                    }
                }
                // Done with a partition once its position passes the end of the scope (compacted or
                // transactional logs can skip offsets, so the position decides, not the last record).
                remaining.removeIf(partition -> consumer.position(partition) >= end.get(partition));
                if (batch.size() >= batchSize || remaining.isEmpty() && !batch.isEmpty()) {
                    AuditStore.AppendResult result = target.append(batch.stream().map(RecordExtractor::extract).toList());
                    read += batch.size();
                    stored += result.stored().size();
                    duplicates += result.duplicates();
                    progress.advance(batch.size());
                    batch.clear();
                }
            }
        }
        Duration readTime = progress.elapsed();
        Log.infof("rebuild into %s: read and stored %d record(s) in %d ms (%d/s)", target.schema(), read,
                readTime.toMillis(), read * 1000 / Math.max(1, readTime.toMillis()));
        boolean caughtUp = awaitLive(scope);
        Instant comparing = clock.instant();
        StoreComparator.Comparison comparison = comparator.compare(live.schema(), scope, target.schema(), maxReported);
        Instant verifying = clock.instant();
        VerifyReport liveChain = live.verify(verifyFetchSize, maxReported);
        VerifyReport rebuiltChain = target.verify(verifyFetchSize, maxReported);
        Log.infof("rebuild into %s: compared in %d ms, verified both chains (%d and %d rows) in %d ms", target.schema(),
                Duration.between(comparing, verifying).toMillis(), liveChain.rowsChecked(), rebuiltChain.rowsChecked(),
                Duration.between(verifying, clock.instant()).toMillis());
        boolean matches = comparison.equal() && liveChain.intact() && rebuiltChain.intact();
        long rate = read * 1000 / Math.max(1, readTime.toMillis());
        return new Result(target.schema(), from, read, stored, duplicates, caughtUp, comparison, liveChain, rebuiltChain,
                matches, progress.elapsed().toMillis(), rate);
    }

    /**
     * Every partition the audit reads, from the start offset to the end offset of now. Asked of the
     * broker's admin API: earliest, latest, and for a time the first offset whose timestamp is at or
     * after it (what {@code offsetsForTimes} answers).
     */
    private List<StoreComparator.Range> scope() {
        Map<String, Object> adminSettings = new HashMap<>(connection);
        adminSettings.put(AdminClientConfig.CLIENT_ID_CONFIG, "cryo-audit-rebuild-" + target.schema());
        try (Admin admin = Admin.create(adminSettings)) {
            Map<String, TopicDescription> topics = admin.describeTopics(AuditTopics.all()).allTopicNames()
                    .get(KAFKA_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            List<TopicPartition> partitions = new ArrayList<>();
            topics.values().forEach(topic -> topic.partitions()
                    .forEach(info -> partitions.add(new TopicPartition(topic.name(), info.partition()))));
            Map<TopicPartition, Long> end = offsets(admin, partitions, OffsetSpec.latest());
            Map<TopicPartition, Long> start = offsets(admin, partitions,
                    from == null ? OffsetSpec.earliest() : OffsetSpec.forTimestamp(from.toEpochMilli()));
            List<StoreComparator.Range> ranges = new ArrayList<>();
            for (TopicPartition partition : partitions) {
                // No record at or after the time (offset -1): nothing of the partition is in scope.
                long first = start.get(partition) < 0 ? end.get(partition) : start.get(partition);
                long last = end.get(partition);
                if (first < last) {
                    ranges.add(new StoreComparator.Range(partition.topic(), partition.partition(), first, last));
                }
            }
            Log.infof("rebuild into %s: %d partition(s) with records, %d record(s) in scope", target.schema(), ranges.size(),
                    ranges.stream().mapToLong(range -> range.to() - range.from()).sum());
            return ranges;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CryoException(AuditErrorCode.KAFKA_UNAVAILABLE, "Cannot rebuild: interrupted", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new CryoException(AuditErrorCode.KAFKA_UNAVAILABLE, "Cannot rebuild: Kafka did not list the topics' offsets "
                    + "(run ./cryo infra up to create the topics): " + e.getMessage(), e);
        }
    }

    private static Map<TopicPartition, Long> offsets(Admin admin, List<TopicPartition> partitions, OffsetSpec spec)
            throws InterruptedException, ExecutionException, TimeoutException {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        partitions.forEach(partition -> request.put(partition, spec));
        Map<TopicPartition, Long> offsets = new HashMap<>();
        admin.listOffsets(request).all().get(KAFKA_TIMEOUT.toSeconds(), TimeUnit.SECONDS)
                .forEach((partition, info) -> offsets.put(partition, info.offset()));
        return offsets;
    }

    /** Waits until the live consumers have committed every record of the scope, or the timeout passes. */
    private boolean awaitLive(List<StoreComparator.Range> scope) {
        Map<TopicPartition, Long> end = new HashMap<>();
        scope.forEach(range -> end.put(new TopicPartition(range.topic(), range.partition()), range.to()));
        Instant deadline = clock.instant().plus(catchUpTimeout);
        while (true) {
            Map<TopicPartition, Long> stored = lag.storedOffsets(end.keySet());
            List<TopicPartition> behind = end.keySet().stream()
                    .filter(partition -> stored.getOrDefault(partition, 0L) < end.get(partition)).toList();
            if (behind.isEmpty()) {
                return true;
            }
            if (clock.instant().isAfter(deadline)) {
                Log.warnf("rebuild into %s: the live store has not ingested %s within %s; comparing anyway",
                        target.schema(), behind, catchUpTimeout);
                return false;
            }
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CryoException(AuditErrorCode.STORE_UNAVAILABLE, "Cannot rebuild: interrupted", e);
            }
        }
    }
}
