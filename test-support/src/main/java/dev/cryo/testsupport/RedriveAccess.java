package dev.cryo.testsupport;

import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.List;
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

    private static final String REDRIVE = "/api/v1/dead-letters/redrive";

    /** @param deadLetterTopic the service's dead-letter topic, {@code cryo.dlq.<service>.v1} */
    public static void assertOnlyOperatorsRedrive(String deadLetterTopic) {
        try (KafkaTestClient kafka = new KafkaTestClient()) {
            Map<TopicPartition, Long> mark = kafka.mark(deadLetterTopic);
            OperatorOnly.assertRefusedToAllButOperators(List.of(redrive()));
            assertNoRedriveMarker(kafka, mark, deadLetterTopic);
        }
        given().get("/api/v1/dead-letters").then().statusCode(200).body("topic", equalTo(deadLetterTopic));
        given().header("Authorization", OperatorOnly.VIEWER).get("/api/v1/dead-letters").then().statusCode(200);
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

    /** The re-drive of every dead letter of the service, as a state-changing endpoint. */
    public static OperatorOnly.Endpoint redrive() {
        return OperatorOnly.Endpoint.post(REDRIVE, "{\"all\": true}");
    }

    private RedriveAccess() {
    }
}
