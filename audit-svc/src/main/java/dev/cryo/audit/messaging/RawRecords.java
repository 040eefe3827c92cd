package dev.cryo.audit.messaging;

import dev.cryo.audit.domain.RawRecord;
import dev.cryo.audit.domain.RecordHeader;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Kafka client records as the audit's plain {@link RawRecord}. */
public final class RawRecords {

    public static RawRecord of(ConsumerRecord<String, byte[]> record) {
        List<RecordHeader> headers = new ArrayList<>();
        for (Header header : record.headers()) {
            headers.add(new RecordHeader(header.key(), header.value()));
        }
        Instant timestamp = record.timestamp() < 0 ? null : Instant.ofEpochMilli(record.timestamp());
        return new RawRecord(record.topic(), record.partition(), record.offset(), timestamp, record.key(), headers,
                record.value());
    }

    private RawRecords() {
    }
}
