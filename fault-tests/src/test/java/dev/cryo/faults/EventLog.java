package dev.cryo.faults;

import dev.cryo.contracts.Topics;
import dev.cryo.contracts.cloudevents.CloudEvents;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.kafka.KafkaEnvelopes;
import dev.cryo.testsupport.KafkaTestClient;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every record on Cryo's topics (dead-letter topics included, the replay topic not) since a
 * scenario began, as the audit reads them: what the stack produced about the scenario's tables.
 */
final class EventLog {

    /** The header SmallRye's dead-letter queue puts the failure's message in. */
    private static final String DEAD_LETTER_REASON = "dead-letter-reason";

    private final String tablePrefix;
    private final Map<TopicPartition, Long> start;

    /** The events the scenario's tables got: decoded ones from the event topics, and every event id. */
    record Events(List<EventEnvelope<CryoEvent>> decoded, Map<String, Set<String>> idsByTable,
                  List<String> deadLetters) {

        <T extends CryoEvent> List<T> of(Class<T> type) {
            return decoded.stream().map(EventEnvelope::data).filter(type::isInstance).map(type::cast).toList();
        }

        List<EventEnvelope<CryoEvent>> envelopesOf(Class<? extends CryoEvent> type) {
            return decoded.stream().filter(envelope -> type.isInstance(envelope.data())).toList();
        }
    }

    /** Marks the end of every topic now; {@link #read} returns what arrives after it for tables of the prefix. */
    EventLog(String tablePrefix) {
        this.tablePrefix = tablePrefix;
        try (KafkaTestClient kafka = new KafkaTestClient()) {
            this.start = kafka.mark(topics());
        }
    }

    static String[] topics() {
        return Topics.all().stream().map(Topics.Spec::name).filter(name -> !name.equals(Topics.REPLAY))
                .toArray(String[]::new);
    }

    /** Reads from the mark up to the end of every topic as it is now. */
    Events read() {
        try (KafkaTestClient kafka = new KafkaTestClient()) {
            Map<TopicPartition, Long> end = kafka.mark(topics());
            Map<TopicPartition, Long> behind = new HashMap<>();
            end.forEach((partition, offset) -> {
                if (offset > start.getOrDefault(partition, 0L)) {
                    behind.put(partition, offset);
                }
            });
            Map<TopicPartition, Long> from = new HashMap<>(start);
            end.keySet().forEach(partition -> from.putIfAbsent(partition, 0L));
            List<ConsumerRecord<String, byte[]>> records = kafka.readAfter(from, Duration.ofMinutes(1),
                    read -> caughtUp(read, behind));
            List<EventEnvelope<CryoEvent>> decoded = new ArrayList<>();
            Map<String, Set<String>> ids = new HashMap<>();
            List<String> deadLetters = new ArrayList<>();
            for (ConsumerRecord<String, byte[]> record : records) {
                if (record.offset() >= end.get(new TopicPartition(record.topic(), record.partition()))) {
                    continue;
                }
                String subject = header(record, CloudEvents.HEADER_SUBJECT);
                String table = subject != null ? subject : record.key();
                if (table == null || !table.startsWith(tablePrefix)) {
                    continue;
                }
                if (deadLetter(record.topic())) {
                    // The audit keeps a dead letter under its place in Kafka (its CloudEvents id is the poison record's).
                    ids.computeIfAbsent(table, ignored -> new LinkedHashSet<>())
                            .add("kafka:" + record.topic() + "/" + record.partition() + "/" + record.offset());
                    deadLetters.add(record.topic() + " " + header(record, CloudEvents.HEADER_TYPE) + " "
                            + header(record, CloudEvents.HEADER_ID) + ": " + header(record, DEAD_LETTER_REASON));
                } else {
                    ids.computeIfAbsent(table, ignored -> new LinkedHashSet<>()).add(header(record, CloudEvents.HEADER_ID));
                    decoded.add(KafkaEnvelopes.fromRecord(record));
                }
            }
            return new Events(decoded, ids, deadLetters);
        }
    }

    private static boolean deadLetter(String topic) {
        return Topics.CONSUMING_SERVICES.stream().map(Topics::deadLetter).anyMatch(topic::equals);
    }

    private static boolean caughtUp(List<ConsumerRecord<String, byte[]>> read, Map<TopicPartition, Long> behind) {
        Map<TopicPartition, Long> reached = new HashMap<>();
        for (ConsumerRecord<String, byte[]> record : read) {
            reached.merge(new TopicPartition(record.topic(), record.partition()), record.offset() + 1, Math::max);
        }
        return behind.entrySet().stream().allMatch(entry -> reached.getOrDefault(entry.getKey(), 0L) >= entry.getValue());
    }

    private static String header(ConsumerRecord<String, byte[]> record, String name) {
        var header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
