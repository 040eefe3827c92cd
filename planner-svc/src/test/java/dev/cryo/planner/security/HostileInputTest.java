package dev.cryo.planner.security;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.Topics;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.JobStarted;
import dev.cryo.contracts.event.TableGraded;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.contracts.kafka.KafkaEnvelopes;
import dev.cryo.testsupport.HostileRecords;
import dev.cryo.testsupport.HostileRequests;
import dev.cryo.testsupport.KafkaTestClient;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

/**
 * Bad input on every topic the planner reads (scans, grades, job results) is dead-lettered with the
 * reason and the original headers, and the next scan, grade and job report are still handled (a plan,
 * then its status); hostile REST bodies and paths get a 4xx that says what is wrong.
 */
@QuarkusTest
class HostileInputTest {

    static final Duration WAIT = Duration.ofSeconds(120);

    @Test
    void hostileRecordsOnEveryTopicAreDeadLetteredAndTheNextEventsAreStillHandled() {
        PlannedTable planned = PlannedTable.create("hostile");
        TableId table = planned.table();
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        EventEnvelope<TableScanned> goodScan = planned.scan();
        EventEnvelope<TableGraded> goodGrade = planned.grade();
        String planId = planned.planId();
        EventEnvelope<JobStarted> goodStart = EventEnvelope.follow(new JobStarted("job-" + UUID.randomUUID(), planId, table,
                Engine.NATIVE, "executor-test", 1, now.plusSeconds(2), 0), "/cryo/executor", now.plusSeconds(2),
                goodScan.correlationId());
        List<ProducerRecord<String, byte[]>> hostileScans = HostileRecords.of(KafkaEnvelopes.toRecord(goodScan), "scanId");
        List<ProducerRecord<String, byte[]>> hostileGrades = HostileRecords.of(KafkaEnvelopes.toRecord(goodGrade), "scanId");
        List<ProducerRecord<String, byte[]>> hostileResults = HostileRecords.of(KafkaEnvelopes.toRecord(goodStart), "planId");

        try (KafkaTestClient kafka = new KafkaTestClient()) {
            Map<TopicPartition, Long> dead = kafka.mark(Topics.deadLetter("planner"));
            hostileScans.forEach(kafka::send);
            hostileGrades.forEach(kafka::send);
            hostileResults.forEach(kafka::send);
            planned.send(kafka);

            HostileRecords.assertDeadLettered(kafka, dead, hostileScans, Topics.TABLE_SCANNED);
            HostileRecords.assertDeadLettered(kafka, dead, hostileGrades, Topics.TABLE_HEALTH);
            HostileRecords.assertDeadLettered(kafka, dead, hostileResults, Topics.JOBS_RESULTS);
            await().atMost(WAIT).pollInterval(Duration.ofMillis(500)).until(() -> given()
                    .get("/api/v1/tables/{table}/plan", table.toString()).statusCode() == 200);
            given().get("/api/v1/tables/{table}/plan", table.toString()).then().body("planId", equalTo(planId))
                    .body("plan.operations[0].operation", equalTo("expire_snapshots"));

            kafka.send(KafkaEnvelopes.toRecord(goodStart));
            await().atMost(WAIT).pollInterval(Duration.ofMillis(500)).until(() -> "STARTED".equals(given()
                    .get("/api/v1/tables/{table}/plan", table.toString()).then().extract().path("status")));
        }
    }

    @Test
    void hostileBodiesAndPathsGetAClearFourHundred() {
        preview("{\"table\": ").then().statusCode(400)
                .body("message", startsWith("Cannot read the request body: it is not valid JSON"));
        preview("{\"table\": \"lake.x.t\", \"admin\": true}").then().statusCode(400)
                .body("message", equalTo("Cannot read the request body: unknown field 'admin' (known fields: table)"));
        preview("{\"table\": \"lake.x." + "t".repeat(300_000) + "\"}").then().statusCode(400)
                .body("message", equalTo("Cannot create table id: table is longer than 255 characters"));
        // Quotes are legal in names and reach SQL only as parameters: the table is simply not known.
        preview("{\"table\": \"lake.x.o'; DROP TABLE plan; --\"}").then().statusCode(404)
                .body("message", equalTo("Cannot preview a plan for lake.x.o'; DROP TABLE plan; --: the planner has stored"
                        + " no grade of it yet"));
        given().get("/api/v1/tables/lake.x.t/plans?limit=100000").then().statusCode(400)
                .body("message", equalTo("Cannot list plans: limit must be 1..500, was 100000"));
        HostileRequests.assertTableIdsRefused("POST /api/v1/plans/preview", "lake",
                id -> preview(HostileRequests.tableBody(id)));
        for (String path : List.of("/api/v1/tables/{table}/plan", "/api/v1/tables/{table}/plans")) {
            HostileRequests.assertTableIdsRefused("GET " + path, "lake", id -> given().get(path, id));
        }
        HostileRequests.assertDeadLetterRequestsRefused();
    }

    private static io.restassured.response.Response preview(String body) {
        return given().contentType(ContentType.JSON).body(body).post("/api/v1/plans/preview");
    }
}
