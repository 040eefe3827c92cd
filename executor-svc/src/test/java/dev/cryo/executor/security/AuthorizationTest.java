package dev.cryo.executor.security;

import dev.cryo.contracts.Topics;
import dev.cryo.testsupport.KafkaTestClient;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

/**
 * The executor's only state-changing endpoint is the dead-letter re-drive every service has (its other
 * endpoints read): without credentials 401, with a wrong token 401, as a viewer 403, and nothing is
 * published; reads stay open to anonymous callers and viewers.
 */
@QuarkusTest
class AuthorizationTest {

    static final String VIEWER = "Bearer test-viewer-token-00001";
    static final String WRONG = "Bearer not-a-token-of-this-cryo";

    @Test
    void theRedriveRefusesAnonymousWrongAndViewerCallersAndPublishesNothing() {
        try (KafkaTestClient kafka = new KafkaTestClient()) {
            Map<TopicPartition, Long> deadLetters = kafka.mark(Topics.deadLetter("executor"));
            given().contentType(ContentType.JSON).body("{\"all\": true}").post("/api/v1/dead-letters/redrive")
                    .then().statusCode(401);
            given().header("Authorization", WRONG).contentType(ContentType.JSON).body("{\"all\": true}")
                    .post("/api/v1/dead-letters/redrive").then().statusCode(401);
            given().header("Authorization", VIEWER).contentType(ContentType.JSON).body("{\"all\": true}")
                    .post("/api/v1/dead-letters/redrive").then().statusCode(403);
            assertNoRedriveMarker(kafka, deadLetters, Topics.deadLetter("executor"));
        }
        given().get("/api/v1/dead-letters").then().statusCode(200).body("topic", equalTo(Topics.deadLetter("executor")));
        given().header("Authorization", VIEWER).get("/api/v1/dead-letters").then().statusCode(200);
    }

    /**
     * No record the calls could have written: the service's own consumers may dead-letter other tests'
     * events meanwhile, so the topic may grow, but none of what it gained is a re-drive marker.
     */
    private static void assertNoRedriveMarker(KafkaTestClient kafka, Map<TopicPartition, Long> mark, String topic) {
        assertThat(kafka.readGainedSince(mark, topic, java.time.Duration.ofSeconds(30)))
                .as("no re-drive marker on " + topic)
                .noneMatch(record -> record.headers().lastHeader("cryo-redrive-of") != null);
    }
}
