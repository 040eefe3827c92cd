package dev.cryo.audit.security;

import dev.cryo.audit.SampleEvents;
import dev.cryo.audit.domain.AuditTopics;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.Topics;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.cloudevents.EventType;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.kafka.KafkaEnvelopes;
import dev.cryo.testsupport.HostileRecords;
import dev.cryo.testsupport.HostileRequests;
import dev.cryo.testsupport.KafkaTestClient;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.cryo.testsupport.OperatorOnly.OPERATOR;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.startsWith;

/**
 * The audit keeps what other consumers dead-letter: a hostile record on any event topic it reads is
 * stored raw as a {@code malformed} row with the reason in {@code detail} (README, "What it stores"),
 * one on a dead-letter topic as a {@code dead-letter} row, and the events sent after them are still
 * stored; hostile query parameters and replay bodies get a 4xx that says what is wrong.
 */
@QuarkusTest
class HostileInputTest {

    /** cryo.audit.query.max-page-bytes, its default. */
    private static final long PAGE_BYTES = 8L << 20;

    static final Duration WAIT = Duration.ofSeconds(120);

    @Test
    void hostileRecordsOnEveryTopicAreKeptWithTheirReasonAndTheNextEventsAreStored() {
        TableId table = SampleEvents.uniqueTable("hostile");
        List<EventEnvelope<? extends CryoEvent>> chain = SampleEvents.chain(table);
        Map<String, ProducerRecord<String, byte[]>> validPerTopic = new LinkedHashMap<>();
        chain.forEach(envelope -> validPerTopic.putIfAbsent(KafkaEnvelopes.toRecord(envelope).topic(), KafkaEnvelopes.toRecord(envelope)));
        assertThat(validPerTopic.keySet()).as("the chain covers every event topic the audit reads")
                .containsExactlyInAnyOrderElementsOf(AuditTopics.eventTopics());
        List<ProducerRecord<String, byte[]>> hostile = new ArrayList<>();
        validPerTopic.values().forEach(valid -> hostile.addAll(HostileRecords.of(valid, "table")));
        ProducerRecord<String, byte[]> template = validPerTopic.get(Topics.TABLE_CHANGED);
        List<ProducerRecord<String, byte[]>> onDeadLetterTopic = HostileRecords.of(new ProducerRecord<>(
                Topics.deadLetter("audit"), null, template.key(), template.value(), template.headers()), "table");

        try (KafkaTestClient kafka = new KafkaTestClient()) {
            hostile.forEach(kafka::send);
            onDeadLetterTopic.forEach(kafka::send);
            chain.forEach(envelope -> kafka.send(KafkaEnvelopes.toRecord(envelope)));
        }

        List<String> eventIds = chain.stream().map(EventEnvelope::id).toList();
        await().atMost(WAIT).pollInterval(Duration.ofSeconds(1)).until(() -> list(table.toString(), "event").stream()
                .map(row -> row.get("eventId")).toList().containsAll(eventIds));
        List<Map<String, Object>> kept = new ArrayList<>();
        await().atMost(WAIT).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
            kept.clear();
            for (String kind : List.of("malformed", "dead-letter")) {
                kept.addAll(list(table.toString(), kind));
                kept.addAll(list(HostileRecords.SQL_TABLE_ID, kind));
            }
            assertThat(java.util.stream.Stream.concat(hostile.stream(), onDeadLetterTopic.stream())
                    .filter(record -> rowOf(kept, record) == null)
                    .map(record -> HostileRecords.caseName(record) + " on " + record.topic()))
                    .as("hostile records not stored yet").isEmpty();
        });
        for (ProducerRecord<String, byte[]> record : hostile) {
            Map<String, Object> row = rowOf(kept, record);
            String name = HostileRecords.caseName(record) + " on " + record.topic();
            assertThat(row.get("kind")).as(name).isEqualTo("malformed");
            assertThat(row.get("status")).as(name).isEqualTo("malformed");
            assertThat(row.get("detail")).as(name).asString().contains(expectedReason(record));
            assertThat(((Map<?, ?>) row.get("kafka")).get("topic")).as(name).isEqualTo(record.topic());
        }
        for (ProducerRecord<String, byte[]> record : onDeadLetterTopic) {
            Map<String, Object> row = rowOf(kept, record);
            String name = HostileRecords.caseName(record) + " on " + record.topic();
            assertThat(row.get("kind")).as(name).isEqualTo("dead-letter");
            assertThat(row.get("detail")).as(name).isEqualTo("no dead-letter-reason header");
        }
        given().get("/api/v1/audit/verify").then().statusCode(200).body("status", equalTo("OK"));

        // The hostile copies carry the valid events' headers, so the chain's correlation id tags several
        // 6 MiB rows too: its timeline stops within the byte budget and says how to see the rest.
        String correlationId = chain.get(0).correlationId();
        List<Map<String, Object>> wholeChain = list(Map.of("correlationId", correlationId));
        io.restassured.path.json.JsonPath timeline = given().get("/api/v1/audit/timeline/{id}", correlationId)
                .then().statusCode(200).extract().jsonPath();
        List<Map<String, Object>> shown = timeline.getList("events");
        assertWithinBudget(shown, "the timeline");
        assertThat(shown).isNotEmpty().hasSizeLessThan(wholeChain.size());
        assertThat(timeline.getString("more")).contains("bytes of stored events")
                .endsWith("GET /api/v1/audit?correlationId=" + correlationId);
        // The oldest events first, as the listing (newest first) has them at its end.
        List<Object> oldestListed = new ArrayList<>(wholeChain.stream().map(row -> row.get("id")).toList());
        java.util.Collections.reverse(oldestListed);
        assertThat(shown.stream().map(row -> row.get("id")).toList()).isEqualTo(oldestListed.subList(0, shown.size()));
    }

    @Test
    void hostileQueriesAndReplayBodiesGetAClearFourHundred() {
        given().get("/api/v1/audit?kind=event';DROP TABLE audit_event;--").then().statusCode(400)
                .body("message", startsWith("Cannot list audit rows: parameter 'kind' ('event';DROP TABLE audit_event;--') must be event,"
                        + " malformed or dead-letter"));
        given().get("/api/v1/audit?from=2026-11-01T00:00:00Z;DROP").then().statusCode(400)
                .body("message", startsWith("Cannot list audit rows: parameter 'from'"));
        given().get("/api/v1/audit?limit=1000000").then().statusCode(400)
                .body("message", startsWith("Cannot list audit rows: 'limit' must be 1 to"));
        // A table filter is a value, not SQL: a quote in it finds nothing and breaks nothing.
        given().get("/api/v1/audit?table=lake.x'; DROP TABLE audit_event; --.t").then().statusCode(200)
                .body("items.size()", equalTo(0));
        given().get("/api/v1/audit?table=" + "t".repeat(3000)).then().statusCode(200).body("items.size()", equalTo(0));
        given().get("/api/v1/audit/events/x'; DROP TABLE audit_event; --").then().statusCode(404)
                .body("message", containsString("Cannot"));
        given().get("/api/v1/audit/timeline/{id}", "../../etc/passwd").then().statusCode(lessThan(500))
                .body(org.hamcrest.Matchers.not(containsString("root:")));
        given().get("/api/v1/audit/replays/{id}", "../../etc/passwd").then().statusCode(404)
                .body("message", equalTo("Cannot find replay ../../etc/passwd: not a replay id"));

        HostileRequests.assertDeadLetterRequestsRefused();
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON).body("{\"targetSchema\": ")
                .post("/api/v1/audit/replays/rebuild").then().statusCode(400)
                .body("message", startsWith("Cannot read the request body: it is not valid JSON"));
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON).body("{\"targetSchema\": \"x\", \"admin\": true}")
                .post("/api/v1/audit/replays/rebuild").then().statusCode(400)
                .body("message", equalTo("Cannot read the request body: unknown field 'admin' (known fields: from, targetSchema)"));
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON)
                .body("{\"targetSchema\": \"audit_test; DROP SCHEMA audit_test CASCADE; --\"}")
                .post("/api/v1/audit/replays/rebuild").then().statusCode(400)
                .body("message", startsWith("Cannot rebuild: Cannot use schema 'audit_test; DROP SCHEMA audit_test CASCADE; --'"));
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON)
                .body("{\"targetSchema\": \"../../etc/passwd\"}")
                .post("/api/v1/audit/replays/rebuild").then().statusCode(400)
                .body("message", startsWith("Cannot rebuild: Cannot use schema '../../etc/passwd'"));
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON)
                .body("{\"targetSchema\": \"" + "s".repeat(500_000) + "\"}")
                .post("/api/v1/audit/replays/rebuild").then().statusCode(400)
                .body("message", startsWith("Cannot rebuild: Cannot use schema")).body("message.length()", lessThan(600_000));
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON)
                .body("{\"from\": \"2026-11-02T00:00:00Z\", \"to\": \"2026-11-01T00:00:00Z\", \"table\": \"lake.x`; DROP TABLE audit_event\"}")
                .post("/api/v1/audit/replays/publish").then().statusCode(400)
                .body("message", equalTo("Cannot re-publish: Cannot filter audit rows: from (2026-11-02T00:00:00Z) must be"
                        + " before to (2026-11-01T00:00:00Z)"));
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON)
                .body("{\"from\": \"yesterday; DROP\", \"to\": \"2026-11-02T00:00:00Z\"}")
                .post("/api/v1/audit/replays/publish").then().statusCode(400)
                .body("message", startsWith("Cannot read the request body: field 'from'"));
    }

    /**
     * The reason the audit gives: the platform's for the header cases, contracts' own wording ("Cannot
     * read TableChanged: ...") where the payload does not read, since the audit reads records itself.
     */
    private static String expectedReason(ProducerRecord<String, byte[]> record) {
        String testCase = HostileRecords.caseName(record);
        if (List.of("not-json", "missing-field", "oversized").contains(testCase)) {
            return "Cannot read " + EventType.fromId(HostileRecords.header(record, "ce_type")).orElseThrow()
                    .payloadType().getSimpleName() + ": ";
        }
        return HostileRecords.expectedReasons(record.topic()).get(testCase);
    }

    private static Map<String, Object> rowOf(List<Map<String, Object>> rows, ProducerRecord<String, byte[]> record) {
        String testCase = HostileRecords.header(record, HostileRecords.CASE);
        return rows.stream().filter(row -> row.get("kafka") instanceof Map<?, ?> kafka && record.topic().equals(kafka.get("topic"))
                && String.valueOf(row.get("headers")).contains(testCase)).findFirst().orElse(null);
    }

    /**
     * Every row of the table and kind, in pages as large as a request may ask for: a row of a 6 MiB record
     * carries it in base64, so each page must stop at the audit's byte budget (at least one row a page).
     */
    private static List<Map<String, Object>> list(String table, String kind) {
        return list(Map.of("table", table, "kind", kind));
    }

    private static List<Map<String, Object>> list(Map<String, String> filter) {
        List<Map<String, Object>> rows = new ArrayList<>();
        String after = "";
        do {
            io.restassured.path.json.JsonPath page = given().queryParam("limit", 1000).queryParams(filter)
                    .queryParam("after", after).get("/api/v1/audit")
                    .then().statusCode(200).extract().jsonPath();
            List<Map<String, Object>> items = page.getList("items");
            assertWithinBudget(items, "a page");
            rows.addAll(items);
            after = page.getString("next");
        } while (after != null);
        return rows;
    }

    private static void assertWithinBudget(List<Map<String, Object>> items, String what) {
        long rawBytes = items.stream().map(row -> (String) row.get("rawValueBase64"))
                .filter(java.util.Objects::nonNull).mapToLong(base64 -> Base64.getDecoder().decode(base64).length).sum();
        assertThat(items.size() == 1 || rawBytes <= PAGE_BYTES)
                .as("%s of %d rows carries %d raw bytes (budget %d)", what, items.size(), rawBytes, PAGE_BYTES).isTrue();
    }
}
