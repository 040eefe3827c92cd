package dev.cryo.platform.deadletter;

import dev.cryo.contracts.cloudevents.CloudEvents;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a read of a dead-letter topic found: dead letters by id ({@code <partition>-<offset>}) with the re-drive
 * that each marker records, the raw records a re-drive copies, and the ids of the markers themselves.
 */
final class DeadLetterScan {

    final Map<String, DeadLetter> deadLetters = new LinkedHashMap<>();
    final Map<String, ConsumerRecord<String, byte[]>> records = new HashMap<>();
    final List<String> markers = new ArrayList<>();
    final List<ConsumerRecord<String, byte[]>> markerRecords = new ArrayList<>();

    void add(ConsumerRecord<String, byte[]> record) {
        String id = record.partition() + "-" + record.offset();
        if (header(record, DeadLetters.REDRIVE_OF) != null) {
            markers.add(id);
            markerRecords.add(record);
            return;
        }
        records.put(id, record);
        deadLetters.put(id, new DeadLetter(id, record.key(), header(record, CloudEvents.HEADER_ID),
                header(record, CloudEvents.HEADER_TYPE), header(record, DeadLetters.DEAD_LETTER_TOPIC),
                number(header(record, DeadLetters.DEAD_LETTER_PARTITION)).map(Long::intValue).orElse(null),
                number(header(record, DeadLetters.DEAD_LETTER_OFFSET)).orElse(null),
                header(record, DeadLetters.DEAD_LETTER_REASON),
                Instant.ofEpochMilli(record.timestamp()), record.value() == null ? 0 : record.value().length,
                null, null, null));
    }

    void applyMarkers() {
        for (ConsumerRecord<String, byte[]> marker : markerRecords) {
            DeadLetter letter = deadLetters.get(header(marker, DeadLetters.REDRIVE_OF));
            if (letter != null && !letter.isRedriven()) {
                deadLetters.put(letter.id(), new DeadLetter(letter.id(), letter.key(), letter.eventId(),
                        letter.eventType(), letter.originalTopic(), letter.originalPartition(), letter.originalOffset(),
                        letter.reason(), letter.deadLetteredAt(), letter.valueBytes(),
                        header(marker, CloudEvents.HEADER_ACTOR), Instant.ofEpochMilli(marker.timestamp()),
                        header(marker, DeadLetters.REDRIVEN_TO)));
            }
        }
    }

    private static Optional<Long> number(String text) {
        try {
            return text == null ? Optional.empty() : Optional.of(Long.parseLong(text.trim()));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static String header(ConsumerRecord<String, byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
