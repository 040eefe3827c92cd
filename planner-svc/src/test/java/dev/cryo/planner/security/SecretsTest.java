package dev.cryo.planner.security;

import dev.cryo.contracts.Topics;
import dev.cryo.testsupport.KafkaTestClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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

        for (ConsumerRecord<String, byte[]> record : published) {
            String value = record.value() == null ? "" : new String(record.value(), StandardCharsets.UTF_8);
            assertThat(value).as("event on " + record.topic()).doesNotContain(SecretsResource.PASSWORD);
            for (Header header : record.headers()) {
                assertThat(new String(header.value(), StandardCharsets.UTF_8)).doesNotContain(SecretsResource.PASSWORD);
            }
        }
        String table = planned.table().toString();
        for (String path : List.of("/api/v1/tables/" + table + "/plan", "/api/v1/tables/" + table + "/plans",
                "/api/v1/tables/lake.x.never_planned/plan", "/api/v1/tables/" + table + "/plans?limit=0",
                "/api/v1/dead-letters", "/q/health", "/q/metrics", "/q/openapi")) {
            assertThat(given().get(path).then().extract().asString()).as(path).doesNotContain(SecretsResource.PASSWORD);
        }
        for (String body : List.of("{\"table\": \"" + table + "\"}", "{\"table\": \"lake.x.never_planned\"}", "{\"table\": ")) {
            assertThat(given().contentType(ContentType.JSON).body(body).post("/api/v1/plans/preview").then().extract().asString())
                    .as("preview " + body).doesNotContain(SecretsResource.PASSWORD);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(SecretsResource.LOG)
                && Files.readString(SecretsResource.LOG).contains("Installed features"));
        assertThat(Files.readString(SecretsResource.LOG)).as("the log of the whole run").doesNotContain(SecretsResource.PASSWORD);
    }
}
