package dev.cryo.audit;

import dev.cryo.audit.domain.AuditRecord;
import dev.cryo.audit.domain.RawRecord;
import dev.cryo.audit.domain.RecordHeader;
import dev.cryo.audit.messaging.RecordExtractor;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.ChangeSource;
import dev.cryo.contracts.event.TableChanged;
import dev.cryo.contracts.kafka.KafkaEnvelopes;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * Audit records built the way ingestion builds them (RecordExtractor over a Kafka record), for tests
 * that write through {@code AuditStore.append} directly instead of through the broker.
 */
public final class BulkRecords {

    /** Rows written outside Kafka carry a topic of their own, so no rebuild scope ever includes them. */
    public static final String BULK_TOPIC = "cryo.test.audit-bulk.v1";

    /** {@code count} TableChanged records of the table, each with about 700 bytes of payload. */
    public static List<AuditRecord> changes(TableId table, long firstOffset, int count) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        String location = "s3://warehouse/" + table.namespaceName() + "/" + table.table() + "/metadata/" + "m".repeat(500);
        List<AuditRecord> records = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            long offset = firstOffset + i;
            TableChanged change = new TableChanged(table, ChangeSource.WATCHER, now, offset, offset, "append", now,
                    location + offset + ".metadata.json", null, null);
            ProducerRecord<String, byte[]> record = KafkaEnvelopes.toRecord(EventEnvelope.startChain(change, "/cryo/scanner", now));
            List<RecordHeader> headers = new ArrayList<>();
            for (Header header : record.headers()) {
                headers.add(new RecordHeader(header.key(), header.value()));
            }
            records.add(RecordExtractor.event(new RawRecord(BULK_TOPIC, 0, offset, now, record.key(), headers, record.value())));
        }
        return records;
    }

    private BulkRecords() {
    }
}
