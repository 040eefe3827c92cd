package dev.cryo.executor.security;

import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.Topics;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.JobAdmitted;
import dev.cryo.contracts.event.JobFinished;
import dev.cryo.contracts.event.JobOutcome;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.contracts.kafka.KafkaEnvelopes;
import dev.cryo.executor.Jobs;
import dev.cryo.executor.WarehouseResource;
import dev.cryo.testsupport.HostileRecords;
import dev.cryo.testsupport.HostileRequests;
import dev.cryo.testsupport.KafkaTestClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static dev.cryo.testsupport.OperatorOnly.OPERATOR;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

/**
 * Bad input on the topic the executor reads (admitted jobs) is dead-lettered with the reason and the
 * original headers, and the next job is still run; hostile paths and parameters of its REST API get a
 * 4xx that says what is wrong.
 */
@QuarkusTest
@QuarkusTestResource(WarehouseResource.class)
class HostileInputTest {

    @Test
    void hostileJobsAreDeadLetteredAndTheNextJobStillRuns() {
        TableId missing = TableId.of(WarehouseResource.CATALOG, "maintenance", "hostile_" + UUID.randomUUID().toString().substring(0, 8));
        String jobId = "job-" + UUID.randomUUID();
        EventEnvelope<JobAdmitted> good = Jobs.admitted(missing, jobId, List.of(
                Jobs.whole(Operation.OPTIMIZE_MANIFESTS, OperationParameters.NONE)));
        List<ProducerRecord<String, byte[]>> hostile = HostileRecords.of(KafkaEnvelopes.toRecord(good), "jobId");
        try (KafkaTestClient kafka = new KafkaTestClient()) {
            Map<TopicPartition, Long> dead = kafka.mark(Topics.deadLetter("executor"));
            Map<TopicPartition, Long> results = Jobs.markResults(kafka);
            hostile.forEach(kafka::send);
            kafka.send(KafkaEnvelopes.toRecord(good));

            HostileRecords.assertDeadLettered(kafka, dead, hostile, Topics.JOBS_ADMITTED);
            List<EventEnvelope<CryoEvent>> answered = Jobs.resultsUntilFinished(kafka, results, jobId, Duration.ofSeconds(60));
            JobFinished finished = (JobFinished) answered.get(answered.size() - 1).data();
            assertThat(finished.outcome()).isEqualTo(JobOutcome.FAILED);
            assertThat(finished.message()).contains("Cannot load table " + missing);
        }
    }

    @Test
    void hostilePathsAndParametersGetAClearFourHundred() {
        HostileRequests.assertTableIdsRefused("GET /api/v1/tables/{table}/orphans", "exectest",
                id -> given().header("Authorization", OPERATOR).get("/api/v1/tables/{table}/orphans", id));
        given().header("Authorization", OPERATOR).get("/api/v1/tables/exectest.maintenance.t/orphans?ageFloor=PT1H;DROP TABLE job_attempt").then().statusCode(400)
                .body("message", startsWith("Cannot list orphans of exectest.maintenance.t: ageFloor is not an ISO-8601 duration: Text cannot be parsed to a Duration"));
        // A quote is a legal name character: it reaches the catalog as a name and finds no table.
        given().header("Authorization", OPERATOR).get("/api/v1/tables/exectest.maintenance.x'; DROP TABLE job_attempt; --/orphans").then()
                .statusCode(org.hamcrest.Matchers.allOf(org.hamcrest.Matchers.greaterThanOrEqualTo(400),
                        org.hamcrest.Matchers.lessThan(500)))
                .body("message", containsString("Cannot"));
        given().get("/api/v1/jobs/x'; DROP TABLE job_attempt; --").then().statusCode(404)
                .body("message", equalTo("Cannot find job x'; DROP TABLE job_attempt; --: no executor of this group ran it"));
        given().get("/api/v1/jobs/" + "j".repeat(1000)).then().statusCode(404)
                .body("code", equalTo("JOB_NOT_FOUND"));
        given().get("/api/v1/jobs?limit=100000").then().statusCode(400)
                .body("message", equalTo("Cannot list jobs: limit must be between 1 and 1000, got 100000"));
        HostileRequests.assertDeadLetterRequestsRefused();
        given().get("/api/v1/jobs").then().statusCode(200);
    }
}
