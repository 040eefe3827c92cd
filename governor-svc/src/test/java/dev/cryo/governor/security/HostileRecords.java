package dev.cryo.governor.security;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.json.EventJson;
import dev.cryo.contracts.kafka.KafkaEnvelopes;
import dev.cryo.testsupport.KafkaTestClient;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Records no consumer may handle, built from a valid event of the topic: not JSON, no CloudEvents
 * headers, an unknown type, a required field missing, another spec version, another data schema, a
 * 2 MB value, and SQL in the table id. All share the valid event's key (one partition, in order), and
 * each carries a {@value #CASE} header, which the dead letter keeps, to find it again.
 */
final class HostileRecords {

    static final String CASE = "cryo-test-case";
    /**
     * A value a thousand times a normal event's. Not larger: SmallRye keeps the bytes of a record that
     * does not deserialize three times in its dead letter, so above about 2.7 MB the dead letter exceeds
     * the 8 MiB record limit and the consumer's channel stops (see the platform README, known limits).
     */
    static final int OVERSIZED_BYTES = 2 * 1024 * 1024;

    /** Each case and a fragment of the dead-letter reason it must get. */
    static Map<String, String> expectedReasons(String topic) {
        Map<String, String> reasons = new LinkedHashMap<>();
        reasons.put("not-json", "Cannot read record on " + topic);
        reasons.put("no-headers", "header ce_type is missing");
        reasons.put("unknown-type", "unknown event type 'dev.cryo.unknown.v1'");
        reasons.put("missing-field", "Cannot read record on " + topic);
        reasons.put("spec-version-2", "CloudEvents spec version 2.0 is not 1.0");
        reasons.put("dataschema-v2", "v2.schema.json is not the schema of");
        reasons.put("oversized", "Cannot read record on " + topic);
        reasons.put("sql-in-table-id", "contains '.', '`' or a control character");
        return reasons;
    }

    /** The hostile records, in the order of {@link #expectedReasons}. */
    static List<ProducerRecord<String, byte[]>> of(EventEnvelope<?> valid, String topic, String requiredField) {
        String run = UUID.randomUUID().toString();
        List<ProducerRecord<String, byte[]>> records = new ArrayList<>();
        ProducerRecord<String, byte[]> template = KafkaEnvelopes.toRecord(valid, topic);
        String key = template.key();
        records.add(withHeaders(template, key, "not a Cryo event {".getBytes(StandardCharsets.UTF_8), "not-json", run));
        ProducerRecord<String, byte[]> bare = new ProducerRecord<>(topic, key, template.value());
        bare.headers().add(CASE, ("no-headers/" + run).getBytes(StandardCharsets.UTF_8));
        records.add(bare);
        records.add(replacing(withHeaders(template, key, template.value(), "unknown-type", run), "ce_type", "dev.cryo.unknown.v1"));
        ObjectNode json = tree(template.value());
        json.remove(requiredField);
        records.add(withHeaders(template, key, bytes(json), "missing-field", run));
        records.add(replacing(withHeaders(template, key, template.value(), "spec-version-2", run), "ce_specversion", "2.0"));
        String type = header(template, "ce_type");
        records.add(replacing(withHeaders(template, key, template.value(), "dataschema-v2", run), "ce_dataschema",
                "https://cryo.dev/schemas/" + type.replace(".v1", ".v2") + ".schema.json"));
        byte[] huge = ("{\"" + "x".repeat(OVERSIZED_BYTES)).getBytes(StandardCharsets.UTF_8);
        records.add(withHeaders(template, key, huge, "oversized", run));
        ObjectNode hostile = tree(template.value());
        hostile.put("table", "lake.sales.orders`; DROP TABLE audit_event; --");
        records.add(replacing(withHeaders(template, key, bytes(hostile), "sql-in-table-id", run), "ce_subject",
                "lake.sales.orders`; DROP TABLE audit_event; --"));
        return records;
    }

    /** Waits for a dead letter of every case of this run and checks its reason and that it kept the original headers. */
    static void assertDeadLettered(KafkaTestClient kafka, Map<TopicPartition, Long> mark, List<ProducerRecord<String, byte[]>> sent,
                                   String topic) {
        Map<String, String> expected = expectedReasons(topic);
        List<String> cases = sent.stream().map(record -> header(record, CASE)).toList();
        List<ConsumerRecord<String, byte[]>> dead = kafka.readAfter(mark, Duration.ofSeconds(90), records -> cases.stream()
                .allMatch(c -> records.stream().anyMatch(r -> c.equals(header(r, CASE)))));
        for (ProducerRecord<String, byte[]> original : sent) {
            String testCase = header(original, CASE);
            ConsumerRecord<String, byte[]> letter = dead.stream().filter(r -> testCase.equals(header(r, CASE))).findFirst().orElseThrow();
            String name = testCase.substring(0, testCase.indexOf('/'));
            assertThat(header(letter, "dead-letter-reason")).as(name).contains(expected.get(name));
            assertThat(header(letter, "dead-letter-topic")).as(name).isEqualTo(topic);
            for (Header header : original.headers()) {
                assertThat(header(letter, header.key())).as(name + " keeps " + header.key())
                        .isEqualTo(new String(header.value(), StandardCharsets.UTF_8));
            }
        }
    }

    static String header(ProducerRecord<String, byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    static String header(ConsumerRecord<String, byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private static ProducerRecord<String, byte[]> withHeaders(ProducerRecord<String, byte[]> template, String key, byte[] value,
                                                              String testCase, String run) {
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(template.topic(), key, value);
        template.headers().forEach(header -> record.headers().add(header.key(), header.value()));
        record.headers().add(CASE, (testCase + "/" + run).getBytes(StandardCharsets.UTF_8));
        return record;
    }

    private static ProducerRecord<String, byte[]> replacing(ProducerRecord<String, byte[]> record, String header, String value) {
        record.headers().remove(header);
        record.headers().add(header, value.getBytes(StandardCharsets.UTF_8));
        return record;
    }

    private static ObjectNode tree(byte[] json) {
        try {
            return (ObjectNode) EventJson.mapper().readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] bytes(ObjectNode json) {
        return json.toString().getBytes(StandardCharsets.UTF_8);
    }

    private HostileRecords() {
    }
}
