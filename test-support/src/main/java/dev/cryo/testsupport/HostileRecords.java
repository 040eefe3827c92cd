package dev.cryo.testsupport;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
 * Records no consumer may handle, built from a valid record of a topic (contracts' {@code
 * KafkaEnvelopes.toRecord}): not JSON, no CloudEvents headers, an unknown type, a required field
 * missing, another spec version, another data schema, a 6 MiB value, and SQL in the table id. All share
 * the valid record's key (one partition, in order, so a valid record sent after them is read after
 * them), and each carries a {@value #CASE} header, which a dead letter keeps, to find it again among
 * other tests' records on the shared topics.
 */
public final class HostileRecords {

    /** The header naming a record's case and run: {@code <case>/<run uuid>}. */
    public static final String CASE = "cryo-test-case";
    /**
     * A value of 6 MiB, three thousand times a normal event's and above the 1 MiB to which a dead
     * letter's value is cut. Until 2026-12-01 a value above about 2.7 MB stopped its consumer: SmallRye
     * kept it three times in the dead letter, which then exceeded the 8 MiB record limit.
     */
    public static final int OVERSIZED_BYTES = 6 * 1024 * 1024;
    /** The header of a dead letter whose value was cut, with the value's original length (platform's CryoRecordSerializer). */
    public static final String TRUNCATED_FROM = "cryo-dead-letter-truncated-from";
    /** The length to which a dead letter's value is cut. */
    public static final int DEAD_LETTER_VALUE_BYTES = 1024 * 1024;
    /** The table id of the {@code sql-in-table-id} case: a backtick, which TableId refuses, and a statement. */
    public static final String SQL_TABLE_ID = "lake.sales.orders`; DROP TABLE audit_event; --";

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Each case and a fragment of the dead-letter reason platform's consumers give it. */
    public static Map<String, String> expectedReasons(String topic) {
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

    /**
     * The hostile records, in the order of {@link #expectedReasons}, on the valid record's topic.
     *
     * @param valid a record of a valid event, with its CloudEvents headers
     * @param requiredField a field of the event's JSON without which it is not that event
     */
    public static List<ProducerRecord<String, byte[]>> of(ProducerRecord<String, byte[]> valid, String requiredField) {
        String run = UUID.randomUUID().toString();
        List<ProducerRecord<String, byte[]>> records = new ArrayList<>();
        String key = valid.key();
        records.add(withHeaders(valid, "not a Cryo event {".getBytes(StandardCharsets.UTF_8), "not-json", run));
        ProducerRecord<String, byte[]> bare = new ProducerRecord<>(valid.topic(), key, valid.value());
        bare.headers().add(CASE, ("no-headers/" + run).getBytes(StandardCharsets.UTF_8));
        records.add(bare);
        records.add(replacing(withHeaders(valid, valid.value(), "unknown-type", run), "ce_type", "dev.cryo.unknown.v1"));
        ObjectNode json = tree(valid.value());
        if (json.remove(requiredField) == null) {
            throw new IllegalArgumentException("The valid event has no field '" + requiredField + "' to leave out");
        }
        records.add(withHeaders(valid, bytes(json), "missing-field", run));
        records.add(replacing(withHeaders(valid, valid.value(), "spec-version-2", run), "ce_specversion", "2.0"));
        String type = header(valid, "ce_type");
        records.add(replacing(withHeaders(valid, valid.value(), "dataschema-v2", run), "ce_dataschema",
                "https://cryo.dev/schemas/" + type.replace(".v1", ".v2") + ".schema.json"));
        byte[] huge = ("{\"" + "x".repeat(OVERSIZED_BYTES)).getBytes(StandardCharsets.UTF_8);
        records.add(withHeaders(valid, huge, "oversized", run));
        ObjectNode hostile = tree(valid.value());
        hostile.put("table", SQL_TABLE_ID);
        records.add(replacing(withHeaders(valid, bytes(hostile), "sql-in-table-id", run), "ce_subject", SQL_TABLE_ID));
        return records;
    }

    /** The case of a record made by {@link #of}: {@code not-json}, {@code oversized}, ... */
    public static String caseName(ProducerRecord<String, byte[]> record) {
        String testCase = header(record, CASE);
        return testCase.substring(0, testCase.indexOf('/'));
    }

    /**
     * Waits for a dead letter of every record sent on the dead-letter topic of the mark, and checks its
     * reason ({@link #expectedReasons}), its original topic and that it kept the original headers.
     */
    public static void assertDeadLettered(KafkaTestClient kafka, Map<TopicPartition, Long> mark,
                                          List<ProducerRecord<String, byte[]>> sent, String topic) {
        Map<String, String> expected = expectedReasons(topic);
        List<String> cases = sent.stream().map(record -> header(record, CASE)).toList();
        List<ConsumerRecord<String, byte[]>> dead = kafka.readAfter(mark, Duration.ofSeconds(90), records -> cases.stream()
                .allMatch(c -> records.stream().anyMatch(r -> c.equals(header(r, CASE)))));
        for (ProducerRecord<String, byte[]> original : sent) {
            String testCase = header(original, CASE);
            ConsumerRecord<String, byte[]> letter = dead.stream().filter(r -> testCase.equals(header(r, CASE))).findFirst().orElseThrow();
            String name = caseName(original);
            assertThat(header(letter, "dead-letter-reason")).as(name).contains(expected.get(name));
            assertThat(header(letter, "dead-letter-topic")).as(name).isEqualTo(topic);
            if (original.value().length > DEAD_LETTER_VALUE_BYTES) {
                assertThat(header(letter, TRUNCATED_FROM)).as(name).isEqualTo(Integer.toString(original.value().length));
                assertThat(letter.value()).as(name).hasSize(DEAD_LETTER_VALUE_BYTES);
            } else {
                assertThat(header(letter, TRUNCATED_FROM)).as(name).isNull();
            }
            for (Header header : original.headers()) {
                assertThat(header(letter, header.key())).as(name + " keeps " + header.key())
                        .isEqualTo(new String(header.value(), StandardCharsets.UTF_8));
            }
        }
    }

    public static String header(ProducerRecord<String, byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    public static String header(ConsumerRecord<String, byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private static ProducerRecord<String, byte[]> withHeaders(ProducerRecord<String, byte[]> template, byte[] value,
                                                              String testCase, String run) {
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(template.topic(), template.key(), value);
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
            return (ObjectNode) JSON.readTree(json);
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
