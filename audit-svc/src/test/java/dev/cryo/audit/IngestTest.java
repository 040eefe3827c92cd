package dev.cryo.audit;

import dev.cryo.contracts.TableId;
import dev.cryo.contracts.Topics;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.cloudevents.EventType;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.kafka.KafkaEnvelopes;
import dev.cryo.testsupport.KafkaClientTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/** Events in through the real broker, rows out through the API. */
@QuarkusTest
class IngestTest extends KafkaClientTest {

    private static final Duration WAIT = Duration.ofSeconds(120);

    @Test
    void eventsOfEveryTypeBecomeRowsWithTheirColumns() {
        TableId table = SampleEvents.uniqueTable("every_type");
        List<EventEnvelope<? extends CryoEvent>> chain = SampleEvents.chain(table);

        chain.forEach(envelope -> kafka.send(KafkaEnvelopes.toRecord(envelope)));

        List<Map<String, Object>> rows = awaitEvents("table=" + table, ids(chain));
        assertThat(rows).extracting(row -> row.get("eventType"))
                .containsExactlyInAnyOrderElementsOf(chain.stream().map(envelope -> envelope.type().id()).toList());
        for (EventEnvelope<? extends CryoEvent> envelope : chain) {
            Map<String, Object> row = rows.stream().filter(r -> envelope.id().equals(r.get("eventId"))).findFirst().orElseThrow();
            assertThat(row.get("kind")).isEqualTo("event");
            assertThat(row.get("table")).isEqualTo(table.toString());
            assertThat(row.get("correlationId")).isEqualTo(chain.get(0).id());
            assertThat(row.get("actor")).isEqualTo(SampleEvents.ACTOR);
            assertThat(row.get("source")).isEqualTo(envelope.source());
            assertThat(row.get("eventTime")).isEqualTo(envelope.time().toString());
            @SuppressWarnings("unchecked")
            Map<String, Object> position = (Map<String, Object>) row.get("kafka");
            assertThat(position.get("topic")).isEqualTo(envelope.type().topic());
            assertThat(position.get("key")).isEqualTo(table.toString());
            assertThat(row.get("payload")).isInstanceOf(Map.class);
            assertThat((String) row.get("rowHash")).hasSize(64);
        }
        Map<String, Object> operation = byType(rows, EventType.OPERATION_FINISHED);
        assertThat(operation.get("status")).isEqualTo("failed");
        assertThat(operation.get("operations")).isEqualTo(List.of("optimize"));
        assertThat(operation.get("engine")).isEqualTo("trino");
        assertThat(operation.get("durationMillis")).isEqualTo(2345);
        assertThat(operation.get("reason")).isEqualTo("TRINO_QUERY_FAILED");
        Map<String, Object> deferred = byType(rows, EventType.JOB_DEFERRED);
        assertThat(deferred.get("status")).isEqualTo("deferred");
        assertThat(deferred.get("reason")).isEqualTo("no-slot");
        Map<String, Object> refused = byType(rows, EventType.JOB_REFUSED);
        assertThat(refused.get("status")).isEqualTo("refused");
        assertThat(refused.get("reason")).isEqualTo("lease-expired");
        assertThat(refused.get("jobId")).isEqualTo(byType(rows, EventType.JOB_ADMITTED).get("jobId"));
        Map<String, Object> revoked = byType(rows, EventType.JOB_REVOKED);
        assertThat(revoked.get("status")).isEqualTo("revoked");
        assertThat(revoked.get("reason")).isEqualTo("table-paused");
        assertThat((String) revoked.get("detail")).contains("paused by operator:alice", "pause-1");
        assertThat(byType(rows, EventType.JOB_FINISHED).get("durationMillis")).isEqualTo(4000);
        assertThat(byType(rows, EventType.TABLE_SCANNED).get("durationMillis")).isEqualTo(1500);
        assertThat(byType(rows, EventType.JOB_ADMITTED).get("jobId")).isEqualTo(byType(rows, EventType.JOB_STARTED).get("jobId"));

        JsonPath timeline = given().get("/api/v1/audit/timeline/" + chain.get(0).id()).then().statusCode(200).extract().jsonPath();
        assertThat(timeline.getList("stages")).containsExactly("change", "scan", "grade", "plan", "admit", "defer", "job", "result",
                "score");
        assertThat(timeline.getString("table")).isEqualTo(table.toString());
        assertThat(timeline.getList("events.eventId", String.class)).containsSubsequence(ids(chain));
        assertThat(timeline.getString("more")).as("the whole chain is shown").isNull();

        given().get("/api/v1/audit/events/" + chain.get(4).id()).then().statusCode(200)
                .body("eventType", equalTo(EventType.MAINTENANCE_PLANNED.id()))
                .body("payload.planId", equalTo(byType(rows, EventType.MAINTENANCE_PLANNED).get("planId")));
        given().get("/q/metrics").then().statusCode(200)
                .body(containsString("cryo_audit_events_ingested_total{kind=\"event\",type=\"dev.cryo.job.deferred.v1\"}"))
                .body(containsString("cryo_audit_ingest_lag_records{topic=\"cryo.jobs.results.v1\"}"));
    }

    @Test
    void aRedeliveredEventIsStoredOnce() {
        TableId table = SampleEvents.uniqueTable("redelivered");
        EventEnvelope<?> event = SampleEvents.change(table, 1);
        EventEnvelope<?> after = SampleEvents.change(table, 2);

        kafka.send(KafkaEnvelopes.toRecord(event));
        kafka.send(KafkaEnvelopes.toRecord(event));
        kafka.send(KafkaEnvelopes.toRecord(after));

        // Same key, same partition: once the later event is stored, both copies have been handled.
        List<Map<String, Object>> rows = awaitEvents("table=" + table, List.of(event.id(), after.id()));
        assertThat(rows).extracting(row -> row.get("eventId")).containsExactlyInAnyOrder(event.id(), after.id());
        assertThat(Database.count("SELECT count(*) FROM " + Database.SCHEMA + ".audit_event WHERE event_id = ?", event.id()))
                .isEqualTo(1);
    }

    @Test
    void unreadableRecordsAndDeadLettersAreKeptWithTheirReason() {
        TableId table = SampleEvents.uniqueTable("unreadable");
        kafka.send(new ProducerRecord<>(Topics.TABLE_CHANGED, table.toString(), "not json".getBytes(StandardCharsets.UTF_8)));
        ProducerRecord<String, byte[]> dead = KafkaEnvelopes.toRecord(SampleEvents.change(table, 3), Topics.deadLetter("scanner"));
        dead.headers().add("dead-letter-reason", "Cannot scan: the catalog is gone".getBytes(StandardCharsets.UTF_8));
        kafka.send(dead);

        // A scanner running elsewhere may dead-letter the same garbage: that row would be kept too.
        await().atMost(WAIT).pollInterval(Duration.ofMillis(300)).until(() ->
                !list("table=" + table + "&kind=malformed").isEmpty() && list("table=" + table + "&kind=dead-letter").stream()
                        .anyMatch(row -> "Cannot scan: the catalog is gone".equals(row.get("detail"))));

        Map<String, Object> malformed = list("table=" + table + "&kind=malformed").get(0);
        assertThat(malformed.get("detail")).asString().contains("header ce_type is missing");
        assertThat(malformed.get("rawValueBase64")).isEqualTo("bm90IGpzb24=");
        Map<String, Object> deadLetter = list("table=" + table + "&kind=dead-letter").stream()
                .filter(row -> "Cannot scan: the catalog is gone".equals(row.get("detail"))).findFirst().orElseThrow();
        assertThat(deadLetter.get("status")).isEqualTo("dead-lettered");
        assertThat(deadLetter.get("eventType")).isEqualTo(EventType.TABLE_CHANGED.id());
    }

    @Test
    void aLargeRecordIsStoredWholeInItsPlaceBetweenTheSmallOnes() throws Exception {
        TableId table = SampleEvents.uniqueTable("large");
        EventEnvelope<?> before = SampleEvents.change(table, 1);
        EventEnvelope<?> after = SampleEvents.change(table, 3);
        ProducerRecord<String, byte[]> small = KafkaEnvelopes.toRecord(before);
        // Far above the size from which consumers leave a value out (it is read again alone), and not JSON.
        byte[] large = ("{\"" + "y".repeat(3 * dev.cryo.audit.messaging.DetachedBytesDeserializer.LARGE_BYTES))
                .getBytes(StandardCharsets.UTF_8);

        kafka.send(small);
        kafka.send(new ProducerRecord<>(small.topic(), small.key(), large));
        kafka.send(KafkaEnvelopes.toRecord(after));

        // Same key, same partition: the three rows follow each other in the chain in Kafka's order.
        awaitEvents("table=" + table, List.of(before.id(), after.id()));
        List<Object[]> rows = new ArrayList<>();
        try (java.sql.Connection connection = Database.owner(); java.sql.PreparedStatement select = connection.prepareStatement(
                "SELECT kind, raw_value, kafka_offset FROM " + Database.SCHEMA + ".audit_event WHERE kafka_key = ?"
                        + " AND kafka_topic = ? ORDER BY id")) {
            select.setString(1, small.key());
            select.setString(2, small.topic());
            try (java.sql.ResultSet result = select.executeQuery()) {
                while (result.next()) {
                    rows.add(new Object[]{result.getString(1), result.getBytes(2), result.getLong(3)});
                }
            }
        }
        assertThat(rows).extracting(row -> row[0]).containsExactly("event", "malformed", "event");
        assertThat(rows).extracting(row -> (Long) row[2]).isSorted();
        assertThat((byte[]) rows.get(1)[1]).as("the large value, byte for byte").isEqualTo(large);
    }

    @Test
    void aPayloadThatPostgresqlRefusesAsJsonIsKeptAsRawBytesWithTheReason() {
        TableId table = SampleEvents.uniqueTable("nul");
        ProducerRecord<String, byte[]> record = KafkaEnvelopes.toRecord(SampleEvents.change(table, 1));
        // Valid JSON and a valid TableChanged, but jsonb has no NUL character.
        String json = new String(record.value(), StandardCharsets.UTF_8).replace("\"snapshotOperation\":\"append\"",
                "\"snapshotOperation\":\"app\\u0000end\"");
        kafka.send(new ProducerRecord<>(record.topic(), null, record.key(), json.getBytes(StandardCharsets.UTF_8),
                record.headers()));

        await().atMost(WAIT).pollInterval(Duration.ofMillis(300)).until(() -> !list("table=" + table).isEmpty());
        Map<String, Object> row = list("table=" + table).get(0);

        assertThat(json).contains("app\\u0000end");
        assertThat(row.get("kind")).isEqualTo("malformed");
        assertThat(row.get("status")).isEqualTo("malformed");
        assertThat(row.get("detail")).asString().contains("Cannot append 1 audit row(s)").contains("SQLSTATE 22");
        assertThat(row.get("rawValueBase64")).isEqualTo(java.util.Base64.getEncoder().encodeToString(json.getBytes(StandardCharsets.UTF_8)));
        assertThat(row.get("eventType")).isEqualTo(EventType.TABLE_CHANGED.id());
    }

    @Test
    void pagesFollowEachOtherNewestFirstWithoutOverlap() {
        TableId table = SampleEvents.uniqueTable("pages");
        List<ProducerRecord<String, byte[]>> records = new ArrayList<>();
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            EventEnvelope<?> change = SampleEvents.change(table, i);
            sent.add(change.id());
            records.add(KafkaEnvelopes.toRecord(change));
        }
        BulkProducer.sendAll(records);
        awaitEvents("table=" + table, sent);

        List<Object> seen = new ArrayList<>();
        List<String> eventIds = new ArrayList<>();
        List<String> times = new ArrayList<>();
        String after = null;
        int pages = 0;
        do {
            JsonPath page = given().queryParam("table", table.toString()).queryParam("limit", 2)
                    .queryParam("after", after == null ? "" : after)
                    .get("/api/v1/audit").then().statusCode(200).extract().jsonPath();
            seen.addAll(page.getList("items.id"));
            eventIds.addAll(page.getList("items.eventId", String.class));
            times.addAll(page.getList("items.eventTime"));
            after = page.getString("next");
            pages++;
        } while (after != null);

        // Five events of our own; a service reacting to them could add rows to the table, never remove any.
        assertThat(pages).isEqualTo((seen.size() + 1) / 2);
        assertThat(seen).doesNotHaveDuplicates();
        assertThat(eventIds).containsAll(sent);
        assertThat(times).isSortedAccordingTo((a, b) -> b.compareTo(a));
        given().queryParam("after", "bm90LWEtY3Vyc29y").get("/api/v1/audit").then().statusCode(400)
                .body("code", equalTo("INVALID_CURSOR"))
                .body("message", equalTo("Cannot read cursor 'bm90LWEtY3Vyc29y': pass the 'next' value of the previous page"));
    }

    @Test
    void filtersCombineAndBadOnesAreRefusedWithTheReason() {
        TableId table = SampleEvents.uniqueTable("filters");
        List<EventEnvelope<? extends CryoEvent>> chain = SampleEvents.chain(table);
        BulkProducer.sendAll(chain.stream().<ProducerRecord<String, byte[]>>map(KafkaEnvelopes::toRecord).toList());
        awaitEvents("table=" + table, ids(chain));

        // Other services may react to these events on the shared topics; only the chain's own rows are counted.
        assertThat(ours(list("table=" + table + "&status=failed"), chain)).extracting(row -> row.get("eventType"))
                .containsExactlyInAnyOrder(EventType.OPERATION_FINISHED.id(), EventType.JOB_FINISHED.id());
        assertThat(list("table=" + table + "&status=failed")).allSatisfy(row -> assertThat(row.get("status")).isEqualTo("failed"));
        assertThat(ours(list("table=" + table + "&operation=expire_snapshots"), chain)).extracting(row -> row.get("eventType"))
                .containsExactlyInAnyOrder(EventType.MAINTENANCE_PLANNED.id(), EventType.JOB_ADMITTED.id());
        assertThat(ours(list("table=" + table + "&engine=trino&reason=no-slot"), chain)).hasSize(1);
        assertThat(ours(list("table=" + table + "&actor=" + SampleEvents.ACTOR + "&type=" + EventType.TABLE_SCANNED.id()), chain))
                .hasSize(1);
        assertThat(ours(list("correlationId=" + chain.get(0).id()), chain)).hasSize(chain.size());
        Instant finishedAt = chain.stream().filter(envelope -> envelope.type() == EventType.JOB_FINISHED).findFirst()
                .orElseThrow().time();
        assertThat(ours(list("table=" + table + "&from=" + finishedAt + "&to=" + finishedAt.plusMillis(1)),
                chain)).extracting(row -> row.get("eventType")).containsExactly(EventType.JOB_FINISHED.id());
        given().queryParam("from", "yesterday").get("/api/v1/audit").then().statusCode(400)
                .body("code", equalTo("INVALID_FILTER"))
                .body("message", containsString("Cannot list audit rows: parameter 'from' ('yesterday') must be an RFC 3339 time"));
        given().queryParam("limit", 5000).get("/api/v1/audit").then().statusCode(400)
                .body("message", equalTo("Cannot list audit rows: 'limit' must be 1 to 1000 (cryo.audit.query.max-limit), got 5000"));
        given().queryParam("format", "xml").get("/api/v1/audit/export").then().statusCode(400)
                .body("code", equalTo("INVALID_FILTER"))
                .body("message", equalTo("Cannot export as 'xml': expected csv or jsonl"));
        given().queryParam("recordedMonth", "2026-13").get("/api/v1/audit/export").then().statusCode(400)
                .body("message", containsString("Cannot export audit rows: parameter 'recordedMonth' ('2026-13') must be a month"));
        given().get("/api/v1/audit/timeline/no-such-chain").then().statusCode(404)
                .body("message", equalTo("Cannot show the timeline of no-such-chain: no stored event has that correlation id"));
    }

    private static Map<String, Object> byType(List<Map<String, Object>> rows, EventType type) {
        return rows.stream().filter(row -> type.id().equals(row.get("eventType"))).findFirst().orElseThrow();
    }

    static List<Map<String, Object>> list(String query) {
        return given().get("/api/v1/audit?limit=1000&" + query).then().statusCode(200).extract().jsonPath().getList("items");
    }

    /** Waits until the listing holds every one of the event ids, and returns their rows. */
    static List<Map<String, Object>> awaitEvents(String query, List<String> eventIds) {
        await().atMost(WAIT).pollInterval(Duration.ofMillis(300)).until(() ->
                list(query).stream().map(row -> row.get("eventId")).toList().containsAll(eventIds));
        return list(query).stream().filter(row -> eventIds.contains(row.get("eventId"))).toList();
    }

    private static List<String> ids(List<EventEnvelope<? extends CryoEvent>> chain) {
        return chain.stream().map(EventEnvelope::id).toList();
    }

    private static List<Map<String, Object>> ours(List<Map<String, Object>> rows, List<EventEnvelope<? extends CryoEvent>> chain) {
        List<String> ids = ids(chain);
        return rows.stream().filter(row -> ids.contains(row.get("eventId"))).toList();
    }
}
