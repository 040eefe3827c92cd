package dev.cryo.governor.security;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.Topics;
import dev.cryo.contracts.event.MaintenancePlanned;
import dev.cryo.contracts.kafka.KafkaEnvelopes;
import dev.cryo.governor.app.Broker;
import dev.cryo.governor.app.Events;
import dev.cryo.testsupport.HostileRecords;
import dev.cryo.testsupport.HostileRequests;
import dev.cryo.testsupport.KafkaTestClient;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.cryo.testsupport.OperatorOnly.OPERATOR;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.startsWith;

/**
 * Bad input on every topic the governor reads (plans, job results) is dead-lettered with the reason
 * and the original headers, and the next good event is still handled; hostile REST bodies get a 4xx
 * that says what is wrong.
 */
@QuarkusTest
class HostileInputTest {

    @BeforeEach
    void runTestTablesNatively() {
        // As GovernorServiceTest: other modules' plans go to Spark, which has no slots in tests.
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON).body("{\"engine\": \"native\"}")
                .put("/api/v1/policies/lake.governor_test.*").then().statusCode(200);
    }

    @Test
    void hostilePlansAreDeadLetteredAndTheNextPlanIsStillAdmitted() {
        TableId table = Events.uniqueTable("hostile_plans");
        MaintenancePlanned good = Events.plan(table, 30, null);
        List<ProducerRecord<String, byte[]>> hostile = HostileRecords.of(
                KafkaEnvelopes.toRecord(Events.planned(Events.plan(table, 30, null)), Topics.PLANS), "planId");
        try (KafkaTestClient kafka = new KafkaTestClient(); Broker broker = new Broker()) {
            Map<TopicPartition, Long> dead = kafka.mark(Topics.deadLetter("governor"));
            Map<TopicPartition, Long> answers = broker.mark();
            hostile.forEach(kafka::send);
            broker.send(Events.planned(good));

            HostileRecords.assertDeadLettered(kafka, dead, hostile, Topics.PLANS);
            broker.collect(answers, event -> event instanceof dev.cryo.contracts.event.JobAdmitted admitted
                            && admitted.planId().equals(good.planId())
                            || event instanceof dev.cryo.contracts.event.JobDeferred deferred && deferred.planId().equals(good.planId()),
                    found -> !found.isEmpty());
        }
    }

    @Test
    void hostileJobResultsAreDeadLetteredAndTheNextResultIsStillHandled() {
        TableId table = Events.uniqueTable("hostile_results");
        List<ProducerRecord<String, byte[]>> hostile = HostileRecords.of(
                KafkaEnvelopes.toRecord(Events.started("job-x", "plan-x", table, Engine.NATIVE), Topics.JOBS_RESULTS), "jobId");
        MaintenancePlanned plan = Events.plan(table, 30, null);
        try (KafkaTestClient kafka = new KafkaTestClient(); Broker broker = new Broker()) {
            Map<TopicPartition, Long> dead = kafka.mark(Topics.deadLetter("governor"));
            Map<TopicPartition, Long> answers = broker.mark();
            broker.send(Events.planned(plan));
            String jobId = ((dev.cryo.contracts.event.JobAdmitted) broker.admitted(answers,
                    job -> job.planId().equals(plan.planId())).data()).jobId();
            hostile.forEach(kafka::send);
            kafka.send(KafkaEnvelopes.toRecord(Events.finished(jobId, plan.planId(), table, Engine.NATIVE)));

            HostileRecords.assertDeadLettered(kafka, dead, hostile, Topics.JOBS_RESULTS);
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(60)).until(() ->
                    !given().get("/api/v1/locks").then().extract().asString().contains(table.toString()));
        }
    }

    @Test
    void hostileBodiesGetAClearFourHundred() {
        String huge = "r".repeat(1_000_001);
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON).body("{\"pattern\": \"lake.x.*\", \"reason\": ")
                .post("/api/v1/pauses").then().statusCode(400)
                .body("message", startsWith("Cannot read the request body: it is not valid JSON"));
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON)
                .body("{\"pattern\": \"lake.x.*\", \"reason\": \"r\", \"admin\": true}")
                .post("/api/v1/pauses").then().statusCode(400)
                .body("message", equalTo("Cannot read the request body: unknown field 'admin' (known fields: pattern, reason)"));
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON)
                .body("{\"pattern\": \"lake.x.*\", \"reason\": \"" + huge + "\"}")
                .post("/api/v1/pauses").then().statusCode(lessThan(500)).statusCode(org.hamcrest.Matchers.greaterThanOrEqualTo(400))
                .body("message.length()", lessThan(400));
        // Table names may hold any character but '.', '`' and control characters: SQL in one is stored as text.
        String sqlPattern = "lake.x'; DROP TABLE pause; --.*";
        String pauseId = given().header("Authorization", OPERATOR).contentType(ContentType.JSON)
                .body("{\"pattern\": \"" + sqlPattern + "\", \"reason\": \"sql\"}")
                .post("/api/v1/pauses").then().statusCode(201).body("pattern", equalTo(sqlPattern)).extract().path("id");
        given().get("/api/v1/pauses").then().statusCode(200)
                .body("find { it.id == '" + pauseId + "' }.pattern", equalTo(sqlPattern));
        given().header("Authorization", OPERATOR).delete("/api/v1/pauses/" + pauseId).then().statusCode(204);
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON)
                .body("{\"pattern\": \"lake.x`; DROP TABLE pause.*\", \"reason\": \"sql\"}")
                .post("/api/v1/pauses").then().statusCode(400).body("message", containsString("Cannot"));
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON).body("{\"cooldown\": \"1; DROP TABLE policy\"}")
                .put("/api/v1/policies/lake.x.*").then().statusCode(400)
                .body("message", equalTo("Cannot set the policy of 'lake.x.*': cooldown '1; DROP TABLE policy' is not an"
                        + " ISO-8601 duration such as PT10M"));
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON).body("{\"cooldown\": \"PT1M\"}")
                .put("/api/v1/policies/..%2F..%2Fetc%2Fpasswd").then().statusCode(400).body("message", containsString("Cannot"));
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON).body("{\"slots\": \"many\"}")
                .put("/api/v1/engines/native").then().statusCode(400)
                .body("message", startsWith("Cannot read the request body: field 'slots' has a value of the wrong form: many"));
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON).body("{\"slots\": 1}")
                .put("/api/v1/engines/native;DROP").then().statusCode(400)
                .body("message", equalTo("Cannot use engine 'native;DROP': expected native, trino or spark"));
        HostileRequests.assertTableIdsRefused("GET /api/v1/tables/{table}", "lake", id -> given().get("/api/v1/tables/{table}", id));
        HostileRequests.assertDeadLetterRequestsRefused();
        // A well-formed request still works after the hostile ones; it puts back the slots it found,
        // since the tests after this one admit their plans on the native engine's slots.
        int nativeSlots = given().get("/api/v1/engines").then().statusCode(200)
                .extract().path("find { it.engine == 'native' }.slots");
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON).body("{\"slots\": " + nativeSlots + "}")
                .put("/api/v1/engines/native").then().statusCode(200).body("slots", equalTo(nativeSlots));
    }
}
