package dev.cryo.contracts.kafka;

import com.github.luben.zstd.Zstd;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.Topics;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.FileSizeTerms;
import dev.cryo.contracts.event.ManifestStats;
import dev.cryo.contracts.event.PartitionFieldInfo;
import dev.cryo.contracts.event.PartitionSpecInfo;
import dev.cryo.contracts.event.PartitionStats;
import dev.cryo.contracts.event.ScanCounters;
import dev.cryo.contracts.event.SnapshotStats;
import dev.cryo.contracts.event.StatisticsStats;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.contracts.event.TableTotals;
import dev.cryo.contracts.json.EventJson;
import dev.cryo.testsupport.Infrastructure;
import dev.cryo.testsupport.NeedsInfrastructure;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A TableScanned of a table with 10 000 partitions must fit in one Kafka record. Measures its
 * size raw and after zstd, checks it against the limits in {@link Topics}, and sends it
 * through the real broker.
 */
@NeedsInfrastructure(Infrastructure.Component.KAFKA)
class TableScannedSizeTest {

    static final int PARTITIONS = 10_000;

    @Test
    void aScanOfTenThousandPartitionsFitsInOneRecord() throws Exception {
        TableScanned scan = scanWithPartitions(PARTITIONS);
        byte[] json = EventJson.write(scan);
        byte[] compressed = Zstd.compress(json);

        System.out.printf("TableScanned with %d partitions: %,d bytes of JSON, %,d bytes after zstd (%.1f×); limit %,d bytes%n",
                PARTITIONS, json.length, compressed.length, (double) json.length / compressed.length, Topics.MAX_RECORD_BYTES);

        // The producer checks max.request.size against the uncompressed record, the broker
        // checks max.message.bytes against the compressed batch: both must hold with room to spare.
        assertThat(json.length).isLessThan(Topics.MAX_RECORD_BYTES / 2);
        assertThat(compressed.length).isLessThan(Topics.MAX_RECORD_BYTES / 8);

        try (TestTopics topics = new TestTopics(); KafkaProducer<String, byte[]> producer = topics.producer()) {
            producer.send(KafkaEnvelopes.toRecord(EventEnvelope.startChain(scan, "/cryo/scanner", Instant.now()),
                    topics.topic)).get(60, TimeUnit.SECONDS);
            EventEnvelope<CryoEvent> received = KafkaEnvelopes.fromRecord(topics.consume(1).get(0));
            assertThat(received.data()).isEqualTo(scan);
        }
    }

    static TableScanned scanWithPartitions(int count) {
        Random random = new Random(42);
        List<PartitionStats> partitions = new ArrayList<>(count);
        long target = FileSizeTerms.ICEBERG_DEFAULT_TARGET_BYTES;
        for (int i = 0; i < count; i++) {
            long files = 1 + random.nextInt(400);
            long small = random.nextInt((int) files + 1);
            long bytes = files * (long) random.nextInt(600_000_000);
            partitions.add(new PartitionStats(1, List.of(String.valueOf(19_000 + i / 10), "region-" + (i % 10)),
                    files, bytes, files * 120_000L, small, small * 20_000_000L, 0,
                    List.of(small, 0L, 0L, 0L, files - small, 0L, 0L),
                    random.nextInt(5), random.nextInt(50_000), random.nextInt(3), random.nextInt(10_000)));
        }
        return new TableScanned(TableId.parse("lakehouse.analytics.events"), "scan-10k", Instant.now(),
                Duration.ofMillis(1234), 2, 1234567890123456789L, 999L, Instant.now(), "s3://warehouse/analytics/events",
                FileSizeTerms.forTarget(target),
                new TableTotals(count, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
                List.of(new PartitionSpecInfo(1, List.of(
                        new PartitionFieldInfo("event_day", "event_ts", 2, "timestamptz", "day"),
                        new PartitionFieldInfo("region", "region", 3, "string", "identity")))),
                partitions, new SnapshotStats(300, Instant.now(), Instant.now(), 1, 0),
                new ManifestStats(2000, 20_000_000, 2000, 0, 1500, 0.1), StatisticsStats.NONE, null,
                Map.of("write.target-file-size-bytes", String.valueOf(target)), new ScanCounters(2000, 0));
    }
}
