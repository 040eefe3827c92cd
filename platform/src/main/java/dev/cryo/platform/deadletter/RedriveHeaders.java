package dev.cryo.platform.deadletter;

import dev.cryo.contracts.cloudevents.CloudEvents;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static dev.cryo.platform.deadletter.DeadLetters.DEAD_LETTER_REASON;
import static dev.cryo.platform.deadletter.DeadLetters.DEAD_LETTER_TOPIC;
import static dev.cryo.platform.deadletter.DeadLetters.REDRIVEN_BY;
import static dev.cryo.platform.deadletter.DeadLetters.REDRIVEN_FROM;
import static dev.cryo.platform.deadletter.DeadLetters.REDRIVEN_TO;
import static dev.cryo.platform.deadletter.DeadLetters.REDRIVE_OF;

/** The headers of a re-drive: those of the re-driven copy, and those of the marker left behind. */
final class RedriveHeaders {

    /**
     * The dead letter's own headers without the dead-letter, deserialization-failure and earlier
     * re-drive ones, plus who re-drove it from where.
     */
    static Headers copy(ConsumerRecord<String, byte[]> record, String actor, String from) {
        Headers headers = new RecordHeaders();
        for (Header header : record.headers()) {
            if (!header.key().startsWith("dead-letter-") && !header.key().startsWith("deserialization-failure")
                    && !header.key().startsWith("cryo-redriven-")) {
                headers.add(header);
            }
        }
        headers.add(REDRIVEN_BY, bytes(actor));
        headers.add(REDRIVEN_FROM, bytes(from));
        return headers;
    }

    /** The marker a re-drive leaves on the dead-letter topic: who re-drove which dead letter, and where it went. */
    static Headers marker(ConsumerRecord<String, byte[]> record, String id, String actor, String target,
                                  String from, String to) {
        Headers marker = new RecordHeaders();
        for (String copied : List.of(CloudEvents.HEADER_ID, CloudEvents.HEADER_TYPE, CloudEvents.HEADER_SOURCE,
                CloudEvents.HEADER_SUBJECT, CloudEvents.HEADER_CORRELATION_ID)) {
            Header header = record.headers().lastHeader(copied);
            if (header != null) {
                marker.add(header);
            }
        }
        marker.add(CloudEvents.HEADER_ACTOR, bytes(actor));
        marker.add(REDRIVE_OF, bytes(id));
        marker.add(REDRIVEN_TO, bytes(to));
        marker.add(DEAD_LETTER_TOPIC, bytes(target));
        marker.add(DEAD_LETTER_REASON, bytes("re-driven by " + actor + " from " + from + " to " + to));
        return marker;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private RedriveHeaders() {
    }
}
