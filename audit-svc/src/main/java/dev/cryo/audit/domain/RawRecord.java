package dev.cryo.audit.domain;

import java.time.Instant;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A Kafka record exactly as the broker delivered it: the audit stores what was published, not
 * what a consumer made of it.
 *
 * @param topic the topic
 * @param partition the partition
 * @param offset the offset
 * @param timestamp the record timestamp (optional)
 * @param key the key as text (optional)
 * @param headers the headers in their order
 * @param value the value bytes (optional: tombstones); the array is the consumer's, kept, not copied,
 *              and never modified: a value can be megabytes, and the audit holds a poll of them
 */
public record RawRecord(String topic, int partition, long offset, Instant timestamp, String key,
                        List<RecordHeader> headers, byte[] value) {

    public RawRecord {
        requireNonNull(topic, "topic is null");
        if (partition < 0 || offset < 0) {
            throw new IllegalArgumentException("Cannot describe record " + topic + "-" + partition + "@" + offset
                    + ": partition and offset must not be negative");
        }
        headers = List.copyOf(requireNonNull(headers, "headers is null"));
    }

    /** {@code topic-partition@offset}, for messages. */
    public String coordinates() {
        return topic + "-" + partition + "@" + offset;
    }

    /** The id of a record that has no trustworthy CloudEvents id: its place in Kafka, which is unique. */
    public String kafkaId() {
        return "kafka:" + topic + "/" + partition + "/" + offset;
    }

    /** The last header of that name, or null. */
    public RecordHeader lastHeader(String name) {
        for (int i = headers.size() - 1; i >= 0; i--) {
            if (headers.get(i).name().equals(name)) {
                return headers.get(i);
            }
        }
        return null;
    }

    /** The last header of that name as UTF-8 text, or null when it is absent, blank or not UTF-8. */
    public String headerText(String name) {
        RecordHeader header = lastHeader(name);
        String text = header == null ? null : header.text();
        return text == null || text.isBlank() ? null : text;
    }
}
