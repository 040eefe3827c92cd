package dev.cryo.planner.security;

import dev.cryo.testsupport.SecretLeaks;
import dev.cryo.contracts.Topics;
import dev.cryo.testsupport.KafkaTestClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The database password, the planner's only secret, reaches PostgreSQL and nothing else: with a scan
 * and a grade planned and the API asked (errors included), neither the log, the published plan nor
 * any answer contains it.
 */
@QuarkusTest
@QuarkusTestResource(value = SecretsResource.class, restrictToAnnotatedClass = true)
class SecretsTest {

    @Test
    void theDatabasePasswordIsInNoLogEventOrAnswer() throws IOException {
        PlannedTable planned = PlannedTable.create("secret");
        List<ConsumerRecord<String, byte[]>> published;
        try (KafkaTestClient kafka = new KafkaTestClient()) {
            Map<TopicPartition, Long> mark = kafka.mark(Topics.PLANS, Topics.deadLetter("planner"));
            planned.send(kafka);
            published = kafka.readAfter(mark, Duration.ofSeconds(120), read -> read.stream()
                    .anyMatch(record -> planned.table().toString().equals(record.key()) && record.topic().equals(Topics.PLANS)));
        }

        SecretLeaks.assertNotInRecords(published, SecretsResource.PASSWORD);
        String table = planned.table().toString();
        SecretLeaks.assertNotInAnswers(List.of("/api/v1/tables/" + table + "/plan", "/api/v1/tables/" + table + "/plans",
                "/api/v1/tables/lake.x.never_planned/plan", "/api/v1/tables/" + table + "/plans?limit=0",
                "/api/v1/dead-letters", "/q/health", "/q/metrics", "/q/openapi"),
                SecretsResource.PASSWORD);
        for (String body : List.of("{\"table\": \"" + table + "\"}", "{\"table\": \"lake.x.never_planned\"}", "{\"table\": ")) {
            assertThat(given().contentType(ContentType.JSON).body(body).post("/api/v1/plans/preview").then().extract().asString())
                    .as("preview " + body).doesNotContain(SecretsResource.PASSWORD);
        }
        SecretLeaks.assertNotInLog(SecretsResource.LOG, SecretsResource.PASSWORD);
    }
}
