package dev.cryo.platform;

import dev.cryo.contracts.TableId;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.ChangeSource;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.TableChanged;
import dev.cryo.contracts.kafka.KafkaEnvelopes;
import dev.cryo.platform.deadletter.DeadLetters;
import dev.cryo.testsupport.KafkaClientTest;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static dev.cryo.testsupport.OperatorOnly.OPERATOR;
import static dev.cryo.testsupport.OperatorOnly.VIEWER;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/**
 * A dead letter keeps the error and every original header, and an operator re-drives it to its
 * original topic once the cause is fixed: the consumer then handles it, the re-drive is marked in the
 * dead-letter topic with the operator (which the audit stores), and a second re-drive is refused.
 * Without credentials or as a viewer nothing is published.
 */
@QuarkusTest
@QuarkusTestResource(TestTopicsResource.class)
class DeadLetterRedriveTest extends KafkaClientTest {

    @Inject
    EchoConsumer consumer;

    @Test
    void aDeadLetterKeepsItsHeadersAndIsRedrivenByAnOperatorOnce() {
        EventEnvelope<TableChanged> event = envelope();
        String table = event.subject();
        consumer.breakTable(table);
        Map<TopicPartition, Long> dlqMark = kafka.mark(TestTopicsResource.DLQ);
        ProducerRecord<String, byte[]> sent = KafkaEnvelopes.toRecord(event, TestTopicsResource.IN);
        kafka.send(sent);

        ConsumerRecord<String, byte[]> dead = first(kafka.readAfter(dlqMark, Duration.ofSeconds(30),
                records -> records.stream().anyMatch(r -> event.id().equals(header(r, "ce_id")))), event.id());
        assertThat(header(dead, "dead-letter-reason")).isEqualTo("Cannot echo " + event.id() + ": table " + table + " is broken");
        assertThat(header(dead, "dead-letter-topic")).isEqualTo(TestTopicsResource.IN);
        assertThat(header(dead, "dead-letter-partition")).isNotNull();
        assertThat(header(dead, "dead-letter-offset")).isNotNull();
        for (Header original : sent.headers()) {
            assertThat(header(dead, original.key())).as(original.key())
                    .isEqualTo(new String(original.value(), StandardCharsets.UTF_8));
        }
        String id = dead.partition() + "-" + dead.offset();

        JsonPath listed = given().queryParam("limit", 1000).get("/api/v1/dead-letters").then().statusCode(200)
                .body("topic", equalTo(TestTopicsResource.DLQ)).extract().jsonPath();
        assertThat(listed.getString("deadLetters.find { it.id == '" + id + "' }.eventId")).isEqualTo(event.id());
        assertThat(listed.getString("deadLetters.find { it.id == '" + id + "' }.originalTopic")).isEqualTo(TestTopicsResource.IN);
        assertThat(listed.getString("deadLetters.find { it.id == '" + id + "' }.reason")).contains("is broken");
        assertThat(listed.getString("deadLetters.find { it.id == '" + id + "' }.redrivenBy")).isNull();

        Map<TopicPartition, Long> beforeRefusals = kafka.mark(TestTopicsResource.IN, TestTopicsResource.DLQ);
        String body = "{\"ids\": [\"" + id + "\"]}";
        given().contentType(ContentType.JSON).body(body).post("/api/v1/dead-letters/redrive").then().statusCode(401);
        given().header("Authorization", VIEWER).contentType(ContentType.JSON).body(body)
                .post("/api/v1/dead-letters/redrive").then().statusCode(403);
        assertThat(kafka.mark(TestTopicsResource.IN, TestTopicsResource.DLQ)).as("nothing published on either topic")
                .isEqualTo(beforeRefusals);

        consumer.repairTable(table);
        Map<TopicPartition, Long> beforeRedrive = kafka.mark(TestTopicsResource.IN, TestTopicsResource.DLQ);
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON).body(body)
                .post("/api/v1/dead-letters/redrive").then().statusCode(200)
                .body("[0].id", equalTo(id)).body("[0].outcome", equalTo("redriven"))
                .body("[0].target", containsString(TestTopicsResource.IN + "/"));

        await().atMost(Duration.ofSeconds(30)).until(() -> consumer.received().stream().anyMatch(e -> e.id().equals(event.id())));
        List<ConsumerRecord<String, byte[]>> published = kafka.readAfter(beforeRedrive, Duration.ofSeconds(30),
                records -> records.stream().filter(r -> table.equals(r.key())).count() >= 2);
        ConsumerRecord<String, byte[]> copy = published.stream()
                .filter(r -> r.topic().equals(TestTopicsResource.IN) && table.equals(r.key())).findFirst().orElseThrow();
        EventEnvelope<CryoEvent> redriven = KafkaEnvelopes.fromRecord(copy);
        assertThat(redriven).isEqualTo(event);
        assertThat(header(copy, DeadLetters.REDRIVEN_BY)).isEqualTo("operator:test-operator");
        assertThat(header(copy, DeadLetters.REDRIVEN_FROM)).isEqualTo(TestTopicsResource.DLQ + "/" + dead.partition() + "/" + dead.offset());
        assertThat(header(copy, "dead-letter-reason")).isNull();
        ConsumerRecord<String, byte[]> marker = published.stream()
                .filter(r -> r.topic().equals(TestTopicsResource.DLQ) && table.equals(r.key())).findFirst().orElseThrow();
        assertThat(header(marker, DeadLetters.REDRIVE_OF)).isEqualTo(id);
        assertThat(header(marker, "ce_actor")).isEqualTo("operator:test-operator");
        assertThat(header(marker, "ce_id")).isEqualTo(event.id());
        assertThat(header(marker, "dead-letter-reason")).startsWith("re-driven by operator:test-operator from ");

        given().header("Authorization", OPERATOR).contentType(ContentType.JSON).body(body)
                .post("/api/v1/dead-letters/redrive").then().statusCode(200)
                .body("[0].outcome", equalTo("already-redriven"))
                .body("[0].message", containsString("operator:test-operator re-drove it at"));
        JsonPath after = given().queryParam("limit", 1000).get("/api/v1/dead-letters").then().statusCode(200).extract().jsonPath();
        assertThat(after.getString("deadLetters.find { it.id == '" + id + "' }.redrivenBy")).isEqualTo("operator:test-operator");
        assertThat(after.getList("deadLetters.id")).doesNotContain(marker.partition() + "-" + marker.offset());
    }

    @Test
    void redriveRequestsThatNameNothingOrSomethingElseAreRefusedWithTheReason() {
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON).body("{}")
                .post("/api/v1/dead-letters/redrive").then().statusCode(400)
                .body("message", containsString("name them, {\"ids\": [\"0-42\"]}, or ask for every waiting one with {\"all\": true}"));
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON).body("{\"ids\": [\"0-1; DROP TABLE x\"]}")
                .post("/api/v1/dead-letters/redrive").then().statusCode(400)
                .body("message", equalTo("Cannot re-drive '0-1; DROP TABLE x': a dead-letter id is <partition>-<offset>, "
                        + "as GET /api/v1/dead-letters lists them"));
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON).body("{\"ids\": [\"0-1\"], \"all\": true}")
                .post("/api/v1/dead-letters/redrive").then().statusCode(400)
                .body("message", equalTo("Cannot re-drive dead letters: give either \"ids\" or \"all\": true, not both"));
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON).body("{\"ids\": [\"0-999999999\"]}")
                .post("/api/v1/dead-letters/redrive").then().statusCode(200)
                .body("[0].outcome", equalTo("refused"))
                .body("[0].message", containsString("holds no such record"));
        given().queryParam("limit", 0).get("/api/v1/dead-letters").then().statusCode(400)
                .body("message", equalTo("Cannot list dead letters: limit must be 1 to 1000, not 0"));
    }

    @Test
    void aDeadLetterWhoseValueWasCutIsNotRedriven() {
        String key = "c.n.huge-" + UUID.randomUUID();
        byte[] huge = new byte[6 * 1024 * 1024];
        Map<TopicPartition, Long> dlqMark = kafka.mark(TestTopicsResource.DLQ);
        kafka.send(new ProducerRecord<>(TestTopicsResource.IN, key, huge));
        ConsumerRecord<String, byte[]> dead = kafka.readAfter(dlqMark, Duration.ofSeconds(60),
                records -> records.stream().anyMatch(r -> key.equals(r.key()))).stream()
                .filter(r -> key.equals(r.key())).findFirst().orElseThrow();
        String id = dead.partition() + "-" + dead.offset();

        Map<TopicPartition, Long> before = kafka.mark(TestTopicsResource.IN);
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON).body("{\"ids\": [\"" + id + "\"]}")
                .post("/api/v1/dead-letters/redrive").then().statusCode(200)
                .body("[0].outcome", equalTo("refused"))
                .body("[0].message", containsString("its value was cut from 6291456 to 1048576 bytes when it was dead-lettered;"
                        + " the original is on " + TestTopicsResource.IN + " at partition "));
        assertThat(kafka.mark(TestTopicsResource.IN)).as("nothing re-driven").isEqualTo(before);
    }

    private static ConsumerRecord<String, byte[]> first(List<ConsumerRecord<String, byte[]>> records, String eventId) {
        return records.stream().filter(r -> eventId.equals(header(r, "ce_id"))).findFirst().orElseThrow();
    }

    private static EventEnvelope<TableChanged> envelope() {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        TableChanged change = new TableChanged(TableId.parse("lake.redrive.t" + UUID.randomUUID().toString().substring(0, 8)),
                ChangeSource.WEBHOOK, now, 1L, 1L, null, null, null, null, "writer");
        return EventEnvelope.startChain(change, "/cryo/test", now).withActor("writer");
    }

    private static String header(ConsumerRecord<String, byte[]> record, String name) {
        var header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
