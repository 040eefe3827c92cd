package dev.cryo.scanner.security;

import dev.cryo.testsupport.SecretLeaks;
import dev.cryo.contracts.Topics;
import dev.cryo.scanner.app.TestCatalogResource;
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
import java.util.UUID;

import static dev.cryo.testsupport.OperatorOnly.OPERATOR;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;

/**
 * The catalog's JDBC password and S3 secret key reach the catalog and nothing else: with the watcher
 * polling, a webhook change and a scan of a table the catalog does not have (so an error is reported),
 * neither the log, the published events nor any API answer contains them.
 */
@QuarkusTest
@QuarkusTestResource(TestCatalogResource.class)
@QuarkusTestResource(value = SecretsResource.class, restrictToAnnotatedClass = true)
class SecretsTest {

    @Test
    void catalogCredentialsAreInNoLogEventOrAnswer() throws IOException {
        String name = "secret_" + UUID.randomUUID().toString().substring(0, 8);
        String table = TestCatalogResource.CATALOG + ".sales." + name;
        List<ConsumerRecord<String, byte[]>> published;
        try (KafkaTestClient kafka = new KafkaTestClient()) {
            Map<TopicPartition, Long> mark = kafka.mark(Topics.TABLE_CHANGED, Topics.TABLE_SCANNED, Topics.deadLetter("scanner"));
            given().header("Authorization", OPERATOR).contentType(ContentType.JSON)
                    .body("{\"catalog\": \"" + TestCatalogResource.CATALOG + "\", \"namespace\": \"sales\", \"table\": \"" + name + "\"}")
                    .post("/api/v1/notifications").then().statusCode(202);
            published = kafka.readAfter(mark, Duration.ofSeconds(30), records -> records.stream().anyMatch(r -> table.equals(r.key())));
            await().atMost(Duration.ofSeconds(30)).until(() -> given().get("/api/v1/catalogs").then().extract().asString()
                    .contains("\"reachable\":true"));
        }

        SecretLeaks.assertNotInRecords(published, SecretsResource.PASSWORD, SecretsResource.S3_SECRET);
        SecretLeaks.assertNotInAnswers(List.of("/api/v1/catalogs", "/api/v1/tables", "/api/v1/tables/" + table + "/scan",
                "/api/v1/dead-letters", "/q/health", "/q/metrics", "/q/openapi"),
                SecretsResource.PASSWORD, SecretsResource.S3_SECRET);
        SecretLeaks.assertNotInLog(SecretsResource.LOG, SecretsResource.PASSWORD, SecretsResource.S3_SECRET);
    }
}
