package dev.cryo.scorer.security;

import dev.cryo.contracts.Topics;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.contracts.kafka.KafkaEnvelopes;
import dev.cryo.scorer.FreshConsumerGroup;
import dev.cryo.scorer.KafkaScans;
import dev.cryo.scoring.fixtures.ScanBuilder;
import dev.cryo.testsupport.HostileRecords;
import dev.cryo.testsupport.HostileRequests;
import dev.cryo.testsupport.KafkaTestClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

/**
 * Bad input on the topic the scorer reads (scans) is dead-lettered with the reason and the original
 * headers, and the next scan is still graded; hostile paths and query parameters of its REST API get a
 * 4xx that says what is wrong.
 */
@QuarkusTest
@QuarkusTestResource(FreshConsumerGroup.class)
class HostileInputTest {

    @Test
    void hostileScansAreDeadLetteredAndTheNextScanIsStillGraded() {
        String table = KafkaScans.uniqueTable("hostile");
        EventEnvelope<TableScanned> good = EventEnvelope.startChain(ScanBuilder.healthy().table(table).build(), "/cryo/scanner",
                Instant.now());
        List<ProducerRecord<String, byte[]>> hostile = HostileRecords.of(KafkaEnvelopes.toRecord(good), "scanId");
        try (KafkaScans scans = new KafkaScans(); KafkaTestClient kafka = new KafkaTestClient()) {
            scans.awaitConsuming();
            Map<TopicPartition, Long> dead = kafka.mark(Topics.deadLetter("scorer"));
            Map<TopicPartition, Long> graded = scans.mark();
            hostile.forEach(kafka::send);
            scans.send(good);

            HostileRecords.assertDeadLettered(kafka, dead, hostile, Topics.TABLE_SCANNED);
            KafkaScans.Published published = scans.awaitGraded(graded, table, 1);
            assertThat(published.graded()).hasSize(1);
        }
        given().get("/api/v1/tables/" + table).then().statusCode(200).body("table", equalTo(table));
    }

    @Test
    void hostilePathsAndParametersGetAClearFourHundred() {
        given().get("/api/v1/tables?grade=A';DROP TABLE grade_current;--").then().statusCode(400)
                .body("message", equalTo("Cannot answer the request: grade must be one of A, B, C, D, F, was"
                        + " 'A';DROP TABLE grade_current;--'"));
        given().get("/api/v1/tables?sort=score;DROP TABLE grade_current").then().statusCode(400)
                .body("message", equalTo("Cannot answer the request: sort must be one of score, table, gradedAt, was"
                        + " 'score;DROP TABLE grade_current'"));
        given().get("/api/v1/tables?order=desc,(SELECT 1)").then().statusCode(400)
                .body("message", equalTo("Cannot answer the request: order must be asc or desc, was 'desc,(SELECT 1)'"));
        given().get("/api/v1/tables?limit=100000000").then().statusCode(400)
                .body("message", startsWith("Cannot answer the request: limit must be within 1.."));
        // Filters are values, not SQL: a quote finds nothing and breaks nothing.
        given().get("/api/v1/tables?catalog=x'; DROP TABLE grade_current; --&namespace=" + "n".repeat(3000))
                .then().statusCode(200).body("total", equalTo(0));
        for (String path : List.of("/api/v1/tables/{table}", "/api/v1/tables/{table}/history", "/api/v1/tables/{table}/policy")) {
            HostileRequests.assertTableIdsRefused("GET " + path, "e2e", id -> given().get(path, id));
        }
        given().get("/api/v1/tables/e2e.sales.x'; DROP TABLE grade_current; --").then().statusCode(404)
                .body("message", startsWith("Cannot find a grade of table e2e.sales.x'; DROP TABLE grade_current; --"));
        HostileRequests.assertDeadLetterRequestsRefused();
        given().get("/api/v1/tables").then().statusCode(200);
    }
}
