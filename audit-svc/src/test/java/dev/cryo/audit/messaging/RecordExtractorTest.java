package dev.cryo.audit.messaging;

import dev.cryo.audit.SampleEvents;
import dev.cryo.audit.domain.AuditRecord;
import dev.cryo.audit.domain.RawRecord;
import dev.cryo.audit.domain.RecordHeader;
import dev.cryo.audit.domain.RecordKind;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.Topics;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.cloudevents.EventType;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.kafka.KafkaEnvelopes;
import dev.cryo.platform.deadletter.DeadLetters;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class RecordExtractorTest {

    private static final Instant RECORD_TIME = Instant.parse("2026-01-02T03:04:05.678Z");

    @Test
    void everyEventTypeFillsItsColumns() {
        TableId table = SampleEvents.uniqueTable("extract");
        List<EventEnvelope<? extends CryoEvent>> chain = SampleEvents.chain(table);
        Map<EventType, AuditRecord> byType = new LinkedHashMap<>();
        for (EventEnvelope<? extends CryoEvent> envelope : chain) {
            byType.put(envelope.type(), RecordExtractor.extract(raw(KafkaEnvelopes.toRecord(envelope), 3, 17)));
        }
        assertThat(byType.keySet()).containsExactlyInAnyOrder(EventType.values());
        String correlation = chain.get(0).id();
        for (Map.Entry<EventType, AuditRecord> entry : byType.entrySet()) {
            AuditRecord record = entry.getValue();
            assertThat(record.kind()).isEqualTo(RecordKind.EVENT);
            assertThat(record.columns().eventType()).isEqualTo(entry.getKey().id());
            assertThat(record.columns().table()).isEqualTo(table.toString());
            assertThat(record.columns().correlationId()).isEqualTo(correlation);
            assertThat(record.columns().actor()).isEqualTo(SampleEvents.ACTOR);
            assertThat(record.position().topic()).isEqualTo(entry.getKey().topic());
            assertThat(record.position().offset()).isEqualTo(17);
            assertThat(record.payloadJson()).isNotNull();
            assertThat(record.rawValue()).isNull();
        }
        EventEnvelope<? extends CryoEvent> first = chain.get(0);
        assertThat(byType.get(EventType.TABLE_CHANGED).eventId()).isEqualTo(first.id());
        assertThat(byType.get(EventType.TABLE_CHANGED).eventTime()).isEqualTo(first.time());
        assertThat(byType.get(EventType.TABLE_CHANGED).columns().status()).isEqualTo("changed");
        assertThat(byType.get(EventType.TABLE_CHANGED).columns().detail()).isEqualTo("noticed by manual, snapshot 42");
        assertThat(byType.get(EventType.TABLE_SCANNED).columns().durationMillis()).isEqualTo(1500);
        assertThat(byType.get(EventType.TABLE_GRADED).columns().status()).isEqualTo("graded");
        assertThat(byType.get(EventType.TABLE_GRADED).columns().operations()).containsExactly("optimize");
        assertThat(byType.get(EventType.TABLE_GRADED).columns().detail()).isEqualTo("grade B, score 80, 1 deduction(s)");
        assertThat(byType.get(EventType.GRADE_CHANGED).columns().detail()).isEqualTo("grade A → B (score 100 → 80)");
        AuditRecord plan = byType.get(EventType.MAINTENANCE_PLANNED);
        assertThat(plan.columns().operations()).containsExactly("optimize", "expire_snapshots");
        assertThat(plan.columns().planId()).startsWith("plan-");
        AuditRecord deferred = byType.get(EventType.JOB_DEFERRED);
        assertThat(deferred.columns().status()).isEqualTo("deferred");
        assertThat(deferred.columns().reason()).isEqualTo("no-slot");
        assertThat(deferred.columns().engine()).isEqualTo("trino");
        assertThat(deferred.columns().detail()).startsWith("engine trino has no free slot (limit 2), retry after ");
        AuditRecord admitted = byType.get(EventType.JOB_ADMITTED);
        assertThat(admitted.columns().status()).isEqualTo("admitted");
        assertThat(admitted.columns().jobId()).startsWith("job-");
        assertThat(admitted.columns().planId()).isEqualTo(plan.columns().planId());
        assertThat(admitted.columns().operations()).containsExactly("optimize", "expire_snapshots");
        assertThat(byType.get(EventType.JOB_STARTED).columns().status()).isEqualTo("started");
        assertThat(byType.get(EventType.JOB_HEARTBEAT).columns().status()).isEqualTo("running");
        assertThat(byType.get(EventType.JOB_HEARTBEAT).columns().operations()).containsExactly("optimize");
        AuditRecord operation = byType.get(EventType.OPERATION_FINISHED);
        assertThat(operation.columns().status()).isEqualTo("failed");
        assertThat(operation.columns().operations()).containsExactly("optimize");
        assertThat(operation.columns().engine()).isEqualTo("trino");
        assertThat(operation.columns().durationMillis()).isEqualTo(2345);
        assertThat(operation.columns().reason()).isEqualTo("TRINO_QUERY_FAILED");
        assertThat(operation.columns().detail()).isEqualTo("Query exceeded memory limit");
        AuditRecord finished = byType.get(EventType.JOB_FINISHED);
        assertThat(finished.columns().status()).isEqualTo("failed");
        assertThat(finished.columns().durationMillis()).isEqualTo(4000);
        assertThat(finished.columns().detail()).isEqualTo("0 operation(s) succeeded, 1 failed");
        AuditRecord scored = byType.get(EventType.JOB_SCORED);
        assertThat(scored.columns().status()).isEqualTo("scored");
        assertThat(scored.columns().reason()).isEqualTo("short");
        assertThat(scored.columns().jobId()).isEqualTo(admitted.columns().jobId());
        assertThat(scored.columns().detail()).isEqualTo("expected 100, got 80 (B): small-files remains");
    }

    @Test
    void thePayloadIsKeptAsPublishedWithFieldsThisVersionDoesNotKnow() {
        EventEnvelope<? extends CryoEvent> change = SampleEvents.chain(SampleEvents.uniqueTable("extract")).get(0);
        ProducerRecord<String, byte[]> record = KafkaEnvelopes.toRecord(change);
        String json = new String(record.value(), StandardCharsets.UTF_8);
        String newer = json.substring(0, json.length() - 1) + ",\"addedInAFutureVersion\":{\"x\":1}}";
        ProducerRecord<String, byte[]> withNewField = new ProducerRecord<>(record.topic(), null, record.key(),
                newer.getBytes(StandardCharsets.UTF_8), record.headers());

        AuditRecord audit = RecordExtractor.extract(raw(withNewField, 0, 1));

        assertThat(audit.kind()).isEqualTo(RecordKind.EVENT);
        assertThat(audit.payloadJson()).isEqualTo(newer);
    }

    @Test
    void aRecordWithoutCloudEventsHeadersIsKeptRawWithTheReason() {
        ProducerRecord<String, byte[]> garbage = new ProducerRecord<>(Topics.PLANS, "lake.ns.t", new byte[] {1, 2, 3, (byte) 0xff});

        AuditRecord audit = RecordExtractor.extract(raw(garbage, 2, 99));

        assertThat(audit.kind()).isEqualTo(RecordKind.MALFORMED);
        assertThat(audit.eventId()).isEqualTo("kafka:" + Topics.PLANS + "/2/99");
        assertThat(audit.eventTime()).isEqualTo(RECORD_TIME);
        assertThat(audit.columns().status()).isEqualTo("malformed");
        assertThat(audit.columns().table()).isEqualTo("lake.ns.t");
        assertThat(audit.columns().detail()).contains("header ce_type is missing");
        assertThat(audit.payloadJson()).isNull();
        assertThat(audit.rawValue()).containsExactly(1, 2, 3, 0xff);
    }

    @Test
    void aPayloadThatBreaksTheContractIsMalformedButKeepsItsHeaderColumns() {
        EventEnvelope<? extends CryoEvent> change = SampleEvents.chain(SampleEvents.uniqueTable("extract")).get(0);
        ProducerRecord<String, byte[]> record = KafkaEnvelopes.toRecord(change);
        ProducerRecord<String, byte[]> broken = new ProducerRecord<>(record.topic(), null, record.key(),
                "{\"table\":\"lake.ns.t\"}".getBytes(StandardCharsets.UTF_8), record.headers());

        AuditRecord audit = RecordExtractor.extract(raw(broken, 0, 5));

        assertThat(audit.kind()).isEqualTo(RecordKind.MALFORMED);
        assertThat(audit.columns().detail()).contains("Cannot read TableChanged");
        assertThat(audit.columns().eventType()).isEqualTo(EventType.TABLE_CHANGED.id());
        assertThat(audit.columns().correlationId()).isEqualTo(change.correlationId());
        assertThat(audit.eventTime()).isEqualTo(change.time());
        assertThat(audit.payloadJson()).isEqualTo("{\"table\":\"lake.ns.t\"}");
    }

    @Test
    void anEventOfAnotherSpecVersionOrDataSchemaIsMalformedAndKeyedByItsPositionNotItsId() {
        EventEnvelope<? extends CryoEvent> change = SampleEvents.chain(SampleEvents.uniqueTable("version")).get(0);
        ProducerRecord<String, byte[]> specTwo = KafkaEnvelopes.toRecord(change);
        specTwo.headers().remove("ce_specversion").add("ce_specversion", "2.0".getBytes(StandardCharsets.UTF_8));
        ProducerRecord<String, byte[]> schemaTwo = KafkaEnvelopes.toRecord(change);
        schemaTwo.headers().add("ce_dataschema",
                "https://cryo.dev/schemas/dev.cryo.table.changed.v2.schema.json".getBytes(StandardCharsets.UTF_8));
        ProducerRecord<String, byte[]> schemaOne = KafkaEnvelopes.toRecord(change);
        schemaOne.headers().add("ce_dataschema",
                ("https://cryo.dev/" + EventType.TABLE_CHANGED.schemaResource()).getBytes(StandardCharsets.UTF_8));

        AuditRecord spec = RecordExtractor.extract(raw(specTwo, 0, 7));
        AuditRecord schema = RecordExtractor.extract(raw(schemaTwo, 0, 8));

        // The same ce_id as the real event: stored as an event, it would make the real one a duplicate.
        assertThat(spec.kind()).isEqualTo(RecordKind.MALFORMED);
        assertThat(spec.eventId()).isEqualTo("kafka:" + Topics.TABLE_CHANGED + "/0/7");
        assertThat(spec.columns().detail()).isEqualTo("Cannot read event " + change.id()
                + ": CloudEvents spec version 2.0 is not 1.0, the one Cryo speaks");
        assertThat(schema.kind()).isEqualTo(RecordKind.MALFORMED);
        assertThat(schema.columns().detail()).startsWith("Cannot read event " + change.id()
                + ": its dataschema https://cryo.dev/schemas/dev.cryo.table.changed.v2.schema.json is not the schema of "
                + EventType.TABLE_CHANGED.id());
        assertThat(RecordExtractor.extract(raw(schemaOne, 0, 9)).kind()).as("its own v1 schema").isEqualTo(RecordKind.EVENT);
    }

    @Test
    void aDeadLetterKeepsItsReasonOriginAndOriginalHeaders() {
        EventEnvelope<? extends CryoEvent> change = SampleEvents.chain(SampleEvents.uniqueTable("extract")).get(0);
        ProducerRecord<String, byte[]> record = KafkaEnvelopes.toRecord(change, Topics.deadLetter("scorer"));
        record.headers().add("dead-letter-reason", "Cannot grade: boom".getBytes(StandardCharsets.UTF_8));
        record.headers().add("dead-letter-exception-class-name",
                "dev.cryo.platform.error.CryoException".getBytes(StandardCharsets.UTF_8));
        record.headers().add("dead-letter-topic", Topics.TABLE_SCANNED.getBytes(StandardCharsets.UTF_8));
        record.headers().add("dead-letter-partition", "4".getBytes(StandardCharsets.UTF_8));
        record.headers().add("dead-letter-offset", "1234".getBytes(StandardCharsets.UTF_8));

        AuditRecord audit = RecordExtractor.extract(raw(record, 0, 8));

        assertThat(audit.kind()).isEqualTo(RecordKind.DEAD_LETTER);
        assertThat(audit.eventId()).isEqualTo("kafka:" + Topics.deadLetter("scorer") + "/0/8");
        assertThat(audit.columns().status()).isEqualTo("dead-lettered");
        assertThat(audit.columns().reason()).isEqualTo("CryoException");
        assertThat(audit.columns().detail()).isEqualTo("Cannot grade: boom (from " + Topics.TABLE_SCANNED + "-4@1234)");
        assertThat(audit.columns().eventType()).isEqualTo(EventType.TABLE_CHANGED.id());
        assertThat(audit.columns().table()).isEqualTo(change.subject());
        assertThat(audit.headersJson()).contains("\"name\":\"ce_id\",\"value\":\"" + change.id() + "\"");
    }

    @Test
    void aRedriveMarkerRecordsTheOperatorWhoRedroveTheDeadLetter() {
        EventEnvelope<? extends CryoEvent> change = SampleEvents.chain(SampleEvents.uniqueTable("redrive")).get(0);
        ProducerRecord<String, byte[]> marker = new ProducerRecord<>(Topics.deadLetter("scorer"), change.subject(), null);
        marker.headers().add("ce_id", change.id().getBytes(StandardCharsets.UTF_8));
        marker.headers().add("ce_type", EventType.TABLE_CHANGED.id().getBytes(StandardCharsets.UTF_8));
        marker.headers().add("ce_subject", change.subject().getBytes(StandardCharsets.UTF_8));
        marker.headers().add("ce_actor", "operator:alice".getBytes(StandardCharsets.UTF_8));
        marker.headers().add(DeadLetters.REDRIVE_OF, "0-7".getBytes(StandardCharsets.UTF_8));
        marker.headers().add("dead-letter-reason", ("re-driven by operator:alice from " + Topics.deadLetter("scorer")
                + "/0/7 to " + Topics.TABLE_CHANGED + "/2/99").getBytes(StandardCharsets.UTF_8));

        AuditRecord audit = RecordExtractor.extract(raw(marker, 0, 9));

        assertThat(audit.kind()).isEqualTo(RecordKind.DEAD_LETTER);
        assertThat(audit.columns().status()).isEqualTo("re-driven");
        assertThat(audit.columns().actor()).isEqualTo("operator:alice");
        assertThat(audit.columns().table()).isEqualTo(change.subject());
        assertThat(audit.columns().detail()).isEqualTo("re-driven by operator:alice from " + Topics.deadLetter("scorer")
                + "/0/7 to " + Topics.TABLE_CHANGED + "/2/99");
    }

    static RawRecord raw(ProducerRecord<String, byte[]> record, int partition, long offset) {
        List<RecordHeader> headers = new ArrayList<>();
        for (Header header : record.headers()) {
            headers.add(new RecordHeader(header.key(), header.value()));
        }
        return new RawRecord(record.topic(), partition, offset, RECORD_TIME, record.key(), headers, record.value());
    }
}
