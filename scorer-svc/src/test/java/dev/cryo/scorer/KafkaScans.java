package dev.cryo.scorer;

import dev.cryo.contracts.Topics;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.contracts.kafka.KafkaEnvelopes;
import dev.cryo.scoring.fixtures.ScanBuilder;
import dev.cryo.testsupport.KafkaTestClient;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Sends scans to the real broker and reads what the scorer published about one table. Topics are
 * shared with other modules' tests, so everything read is filtered by the table id (the record key).
 */
public final class KafkaScans implements AutoCloseable {

    public static final Duration TIMEOUT = Duration.ofSeconds(60);

    private static volatile boolean consuming;

    private final KafkaTestClient kafka = new KafkaTestClient();

    /**
     * Waits until the scorer's consumer reads every partition of the scanned topic: with a fresh
     * group starting at the end, a scan sent before its partition is positioned would be skipped.
     * Sends a probe scan to each partition until the probe is graded; once per test JVM.
     */
    public void awaitConsuming() {
        if (consuming) {
            return;
        }
        int partitions = kafka.mark(Topics.TABLE_SCANNED).size();
        for (int partition = 0; partition < partitions; partition++) {
            String table = uniqueTable("probe");
            int target = partition;
            org.awaitility.Awaitility.await().atMost(TIMEOUT).pollDelay(Duration.ZERO).pollInterval(Duration.ofSeconds(1)).until(() -> {
                Map<TopicPartition, Long> mark = mark();
                ProducerRecord<String, byte[]> record = KafkaEnvelopes.toRecord(EventEnvelope.startChain(
                        ScanBuilder.healthy().table(table).build(), "/cryo/test", Instant.now()));
                kafka.send(new ProducerRecord<>(record.topic(), target, record.key(), record.value(), record.headers()));
                try {
                    kafka.readAfter(mark, Duration.ofSeconds(5), read -> read.stream()
                            .anyMatch(graded -> isAbout(graded, table, Topics.TABLE_HEALTH)));
                    return true;
                } catch (AssertionError notYet) {
                    return false;
                }
            });
        }
        consuming = true;
    }

    /** A table id no other test uses. */
    public static String uniqueTable(String namespace) {
        return "e2e." + namespace + ".t" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }

    public Map<TopicPartition, Long> mark() {
        return kafka.mark(Topics.TABLE_HEALTH, Topics.GRADE_CHANGES);
    }

    /** Sends a scan as the scanner would, as the start of a chain asked for by {@code actor}. */
    public EventEnvelope<TableScanned> send(TableScanned scan, String actor) {
        EventEnvelope<TableScanned> envelope = EventEnvelope.startChain(scan, "/cryo/scanner", Instant.now()).withActor(actor);
        send(envelope);
        return envelope;
    }

    /** Sends an envelope again, as a redelivery would. */
    public void send(EventEnvelope<?> envelope) {
        kafka.send(KafkaEnvelopes.toRecord(envelope));
    }

    public void sendRecord(ProducerRecord<String, byte[]> record) {
        kafka.send(record);
    }

    /**
     * Reads the events about {@code table} published after the mark, once {@code graded} TableGraded
     * events arrived. It then reads on to the end of both topics as they are at that moment, so that
     * whatever the scorer published before its last TableGraded (a duplicate GradeChanged, say) is
     * included, whichever partition the reader happened to fetch first.
     */
    public Published awaitGraded(Map<TopicPartition, Long> mark, String table, int graded) {
        kafka.readAfter(mark, TIMEOUT,
                read -> read.stream().filter(record -> isAbout(record, table, Topics.TABLE_HEALTH)).count() >= graded);
        Map<TopicPartition, Long> ends = mark();
        List<ConsumerRecord<String, byte[]>> records = kafka.readAfter(mark, TIMEOUT, read -> reached(read, mark, ends));
        return new Published(
                records.stream().filter(record -> isAbout(record, table, Topics.TABLE_HEALTH)).map(KafkaEnvelopes::fromRecord).toList(),
                records.stream().filter(record -> isAbout(record, table, Topics.GRADE_CHANGES)).map(KafkaEnvelopes::fromRecord).toList());
    }

    private static boolean reached(List<ConsumerRecord<String, byte[]>> read, Map<TopicPartition, Long> mark,
                                   Map<TopicPartition, Long> ends) {
        return ends.entrySet().stream()
                .filter(end -> end.getValue() > mark.getOrDefault(end.getKey(), 0L))
                .allMatch(end -> read.stream().anyMatch(record -> record.topic().equals(end.getKey().topic())
                        && record.partition() == end.getKey().partition() && record.offset() >= end.getValue() - 1));
    }

    public List<ConsumerRecord<String, byte[]>> readAfter(Map<TopicPartition, Long> mark, String key) {
        return kafka.readAfter(mark, TIMEOUT, read -> read.stream().anyMatch(record -> key.equals(record.key())))
                .stream().filter(record -> key.equals(record.key())).toList();
    }

    public Map<TopicPartition, Long> mark(String... topics) {
        return kafka.mark(topics);
    }

    /** What the scorer published about one table: TableGraded and GradeChanged envelopes in offset order. */
    public record Published(List<EventEnvelope<CryoEvent>> graded, List<EventEnvelope<CryoEvent>> changes) {
    }

    private static boolean isAbout(ConsumerRecord<String, byte[]> record, String table, String topic) {
        return record.topic().equals(topic) && table.equals(record.key());
    }

    @Override
    public void close() {
        kafka.close();
    }
}
