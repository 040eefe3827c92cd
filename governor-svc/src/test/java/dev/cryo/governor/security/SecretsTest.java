package dev.cryo.governor.security;

import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.DeferReason;
import dev.cryo.contracts.event.JobDeferred;
import dev.cryo.contracts.event.MaintenancePlanned;
import dev.cryo.governor.app.Broker;
import dev.cryo.governor.app.Events;
import dev.cryo.testsupport.KafkaTestClient;
import dev.cryo.testsupport.SecretLeaks;
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

import static dev.cryo.testsupport.OperatorOnly.OPERATOR;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Trino password reaches Trino's driver and nothing else: a plan for Trino is deferred because
 * Trino cannot be reached with it, and neither the log, the published events nor any API answer
 * contains it.
 */
@QuarkusTest
@QuarkusTestResource(value = SecretsResource.class, restrictToAnnotatedClass = true)
class SecretsTest {

    @Test
    void theTrinoPasswordIsInNoLogEventOrAnswer() throws IOException {
        TableId table = Events.uniqueTable("secret");
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON).body("{\"engine\": \"trino\"}")
                .put("/api/v1/policies/" + table).then().statusCode(200);
        MaintenancePlanned plan = Events.plan(table, 40, null);
        List<ConsumerRecord<String, byte[]>> published;
        try (Broker broker = new Broker(); KafkaTestClient kafka = new KafkaTestClient()) {
            Map<TopicPartition, Long> mark = broker.mark();
            broker.send(Events.planned(plan));
            JobDeferred deferred = (JobDeferred) broker.deferred(mark, defer -> defer.planId().equals(plan.planId())).data();
            assertThat(deferred.reason()).isEqualTo(DeferReason.ENGINE_BUSY);
            assertThat(deferred.message()).contains("cryo.governor.trino.jdbc-url");
            published = kafka.readAfter(mark, Duration.ofSeconds(30), records -> records.stream()
                    .anyMatch(r -> table.toString().equals(r.key())));
        }

        SecretLeaks.assertNotInRecords(published, SecretsResource.SECRET);
        SecretLeaks.assertNotInAnswers(List.of("/api/v1/engines", "/api/v1/queue", "/api/v1/policies", "/api/v1/pauses", "/api/v1/locks",
                "/api/v1/tables/" + table, "/api/v1/dead-letters", "/q/health", "/q/metrics", "/q/openapi"),
                SecretsResource.SECRET);
        assertThat(given().get("/api/v1/engines").then().statusCode(200).extract().asString())
                .as("the engines API shows the probe's problem").contains("trino");
        SecretLeaks.assertNotInLog(SecretsResource.LOG, SecretsResource.SECRET);
    }
}
