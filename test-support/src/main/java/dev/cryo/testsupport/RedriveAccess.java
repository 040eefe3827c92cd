package dev.cryo.testsupport;

import io.restassured.http.ContentType;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

/**
 * Who may re-drive a service's dead letters ({@code POST /api/v1/dead-letters/redrive}, the
 * state-changing endpoint every service has): nobody without credentials or with a wrong token
 * (401), no viewer (403), and none of them publishes anything; the list stays readable to
 * anonymous callers and viewers. Run against the service under test (its REST Assured port).
 */
public final class RedriveAccess {

    public static final String VIEWER = "Bearer test-viewer-token-00001";
    public static final String WRONG = "Bearer not-a-token-of-this-cryo";
    private static final String REDRIVE = "/api/v1/dead-letters/redrive";

    /** @param deadLetterTopic the service's dead-letter topic, {@code cryo.dlq.<service>.v1} */
    public static void assertOnlyOperatorsRedrive(String deadLetterTopic) {
        try (KafkaTestClient kafka = new KafkaTestClient()) {
            Map<TopicPartition, Long> mark = kafka.mark(deadLetterTopic);
            given().contentType(ContentType.JSON).body("{\"all\": true}").post(REDRIVE).then().statusCode(401);
            given().header("Authorization", WRONG).contentType(ContentType.JSON).body("{\"all\": true}")
                    .post(REDRIVE).then().statusCode(401);
            given().header("Authorization", VIEWER).contentType(ContentType.JSON).body("{\"all\": true}")
                    .post(REDRIVE).then().statusCode(403);
            assertNoRedriveMarker(kafka, mark, deadLetterTopic);
        }
        given().get("/api/v1/dead-letters").then().statusCode(200).body("topic", equalTo(deadLetterTopic));
        given().header("Authorization", VIEWER).get("/api/v1/dead-letters").then().statusCode(200);
    }

    /**
     * No re-drive marker on the topic since the mark. The service's own consumers may dead-letter
     * other tests' events meanwhile, so the topic may grow; none of what it gained may be a marker.
     */
    public static void assertNoRedriveMarker(KafkaTestClient kafka, Map<TopicPartition, Long> mark, String topic) {
        assertThat(kafka.readGainedSince(mark, topic, Duration.ofSeconds(30)))
                .as("no re-drive marker on " + topic)
                .noneMatch(record -> record.headers().lastHeader("cryo-redrive-of") != null);
    }

    private RedriveAccess() {
    }
}
