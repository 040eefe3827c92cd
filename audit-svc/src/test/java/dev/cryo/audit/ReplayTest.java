package dev.cryo.audit;

import dev.cryo.contracts.TableId;
import dev.cryo.contracts.Topics;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.kafka.KafkaEnvelopes;
import dev.cryo.testsupport.KafkaTestClient;
import io.quarkus.logging.Log;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

import static dev.cryo.testsupport.OperatorOnly.OPERATOR;
import static dev.cryo.testsupport.OperatorOnly.VIEWER;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

/** Rebuilding the log from Kafka, and re-publishing stored events. */
@QuarkusTest
class ReplayTest {

    private static final int EVENTS = 10_000;

    @Test
    void aRebuildOfTenThousandEventsIntoAFreshSchemaMatchesTheLiveStore() {
        String tag = "replay_" + UUID.randomUUID().toString().substring(0, 8);
        String target = "audit_test_rebuild_" + UUID.randomUUID().toString().substring(0, 8);
        List<ProducerRecord<String, byte[]>> records = chains(tag, EVENTS);
        List<String> ids = records.stream().map(record -> header(record, "ce_id")).toList();
        Instant from = Instant.now();
        BulkProducer.sendAll(records);
        await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(1)).until(() ->
                Database.countOf(Database.SCHEMA, ids) == EVENTS);
        try {
            String id = given().header("Authorization", OPERATOR).contentType(ContentType.JSON)
                    .body(Map.of("targetSchema", target, "from", from.toString()))
                    .post("/api/v1/audit/replays/rebuild").then().statusCode(202)
                    .body("kind", equalTo("rebuild")).body("actor", equalTo("operator:test-operator"))
                    .extract().jsonPath().getString("id");

            JsonPath run = awaitFinished(id);

            Log.infof("ReplayTest: %s", run.getString("message"));
            assertThat(run.getString("state")).isEqualTo("succeeded");
            assertThat(run.getBoolean("result.matches")).isTrue();
            assertThat(run.getBoolean("result.liveCaughtUp")).isTrue();
            assertThat(run.getLong("result.comparison.differences")).isZero();
            assertThat(run.getLong("result.comparison.other.rows")).isEqualTo(run.getLong("result.comparison.live.rows"))
                    .isGreaterThanOrEqualTo(EVENTS);
            assertThat(run.getMap("result.comparison.other.rowsByType")).isEqualTo(run.getMap("result.comparison.live.rowsByType"));
            assertThat(run.getString("result.comparison.other.digest")).isEqualTo(run.getString("result.comparison.live.digest"));
            assertThat(run.getBoolean("result.liveChain.intact")).isTrue();
            assertThat(run.getBoolean("result.rebuiltChain.intact")).isTrue();
            assertThat(run.getLong("result.rebuiltChain.rowsChecked")).isEqualTo(run.getLong("result.comparison.other.rows"));
            // Our ten thousand, by type, in both stores.
            Map<String, Long> live = Database.countsByType(Database.SCHEMA, ids);
            assertThat(Database.countsByType(target, ids)).isEqualTo(live);
            assertThat(live.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(EVENTS);
        } finally {
            Database.execute("DROP SCHEMA IF EXISTS " + target + " CASCADE");
        }
    }

    @Test
    void storedEventsOfATimeRangeAreRepublishedWithTheirOriginalIdsAndTimes() {
        TableId table = SampleEvents.uniqueTable("republish");
        List<EventEnvelope<? extends CryoEvent>> chain = SampleEvents.chain(table);
        BulkProducer.sendAll(chain.stream().<ProducerRecord<String, byte[]>>map(KafkaEnvelopes::toRecord).toList());
        IngestTest.awaitEvents("table=" + table, chain.stream().map(EventEnvelope::id).toList());
        try (KafkaTestClient kafka = new KafkaTestClient()) {
            Map<TopicPartition, Long> mark = kafka.mark(Topics.REPLAY);

            String id = given().header("Authorization", OPERATOR).contentType(ContentType.JSON)
                    .body(Map.of("from", chain.get(0).time().toString(),
                            "to", chain.get(chain.size() - 1).time().plusMillis(1).toString(), "table", table.toString()))
                    .post("/api/v1/audit/replays/publish").then().statusCode(202)
                    .extract().jsonPath().getString("id");
            JsonPath run = awaitFinished(id);
            List<String> ids = chain.stream().map(EventEnvelope::id).toList();
            List<ConsumerRecord<String, byte[]>> replayed = kafka.readAfter(mark, Duration.ofSeconds(60),
                    read -> read.stream().filter(r -> id.equals(header(r, "cryo-replay-id")))
                            .map(r -> header(r, "ce_id")).toList().containsAll(ids))
                    .stream().filter(r -> id.equals(header(r, "cryo-replay-id"))).toList();

            assertThat(run.getString("state")).isEqualTo("succeeded");
            // Services that reacted to the chain on the shared topics add their events to the table's range.
            assertThat(run.getLong("recordsDone")).isGreaterThanOrEqualTo(chain.size());
            Map<String, ConsumerRecord<String, byte[]>> byId = replayed.stream()
                    .collect(Collectors.toMap(r -> header(r, "ce_id"), r -> r, (first, second) -> first));
            for (EventEnvelope<? extends CryoEvent> envelope : chain) {
                ConsumerRecord<String, byte[]> record = byId.get(envelope.id());
                assertThat(record).as("replayed " + envelope.type().id()).isNotNull();
                assertThat(header(record, "ce_time")).isEqualTo(envelope.time().toString());
                assertThat(header(record, "ce_type")).isEqualTo(envelope.type().id());
                assertThat(header(record, "cryo-original-topic")).isEqualTo(envelope.type().topic());
                assertThat(header(record, "cryo-replayed-by")).isEqualTo("operator:test-operator");
                assertThat(record.key()).isEqualTo(table.toString());
                assertThat(KafkaEnvelopes.fromRecord(record)).isEqualTo(envelope);
            }
        }
    }

    @Test
    void replaysNeedAnOperator() {
        Map<String, String> body = Map.of("targetSchema", "audit_test_rebuild_denied");
        given().contentType(ContentType.JSON).body(body).post("/api/v1/audit/replays/rebuild").then().statusCode(401);
        given().header("Authorization", VIEWER).contentType(ContentType.JSON).body(body)
                .post("/api/v1/audit/replays/rebuild").then().statusCode(403);
        given().header("Authorization", VIEWER).contentType(ContentType.JSON)
                .body(Map.of("from", "2026-01-01T00:00:00Z", "to", "2026-01-02T00:00:00Z"))
                .post("/api/v1/audit/replays/publish").then().statusCode(403);
        given().header("Authorization", VIEWER).get("/api/v1/audit/replays").then().statusCode(200);
    }

    @Test
    void aRebuildTargetMustBeNewOrEmpty() {
        String occupied = "audit_test_occupied_" + UUID.randomUUID().toString().substring(0, 8);
        Database.execute("CREATE SCHEMA " + occupied + "; CREATE TABLE " + occupied + ".something (x int)");
        try {
            given().header("Authorization", OPERATOR).contentType(ContentType.JSON).body(Map.of("targetSchema", occupied))
                    .post("/api/v1/audit/replays/rebuild").then().statusCode(409)
                    .body("code", equalTo("REBUILD_TARGET_NOT_EMPTY"))
                    .body("message", equalTo("Cannot rebuild into schema " + occupied
                            + ": it already holds 1 table(s); name an empty or new schema"));
        } finally {
            Database.execute("DROP SCHEMA " + occupied + " CASCADE");
        }
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON).body(Map.of("targetSchema", Database.SCHEMA))
                .post("/api/v1/audit/replays/rebuild").then().statusCode(400)
                .body("message", equalTo("Cannot rebuild into schema audit_test: name a new schema (not the live store "
                        + "audit_test, not a system schema)"));
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON).body(Map.of("targetSchema", "Bad-Name"))
                .post("/api/v1/audit/replays/rebuild").then().statusCode(400)
                .body("message", equalTo("Cannot rebuild: Cannot use schema 'Bad-Name': use 1 to 63 lower-case letters, "
                        + "digits and '_', starting with a letter or '_'"));
    }

    /** Whole chains of one event per type, for tables of this test alone, cut at {@code count} records. */
    static List<ProducerRecord<String, byte[]>> chains(String tag, int count) {
        List<ProducerRecord<String, byte[]>> records = new ArrayList<>(count);
        while (records.size() < count) {
            for (EventEnvelope<? extends CryoEvent> envelope : SampleEvents.chain(SampleEvents.uniqueTable(tag))) {
                if (records.size() < count) {
                    records.add(KafkaEnvelopes.toRecord(envelope));
                }
            }
        }
        return records;
    }

    static JsonPath awaitFinished(String id) {
        await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofSeconds(1)).until(() -> {
            String state = given().get("/api/v1/audit/replays/" + id).then().statusCode(200).extract().jsonPath().getString("state");
            return state.equals("succeeded") || state.equals("failed");
        });
        return given().get("/api/v1/audit/replays/" + id).then().statusCode(200).extract().jsonPath();
    }

    private static String header(ConsumerRecord<String, byte[]> record, String name) {
        var header = record.headers().lastHeader(name);
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    static String header(ProducerRecord<String, byte[]> record, String name) {
        var header = record.headers().lastHeader(name);
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
