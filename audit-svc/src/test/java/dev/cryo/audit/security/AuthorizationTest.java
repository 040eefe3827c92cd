package dev.cryo.audit.security;

import dev.cryo.audit.Database;
import dev.cryo.contracts.Topics;
import dev.cryo.testsupport.KafkaTestClient;
import dev.cryo.testsupport.OperatorOnly;
import dev.cryo.testsupport.RedriveAccess;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every state-changing endpoint of the audit (rebuild, re-publish, dead-letter re-drive): without
 * credentials 401, with a wrong token 401, as a viewer 403; none of them adds a replay run, creates the
 * rebuild's schema or publishes a re-drive. The operator's own run records the operator as its actor.
 */
@QuarkusTest
class AuthorizationTest {

    @Test
    void everyStateChangingEndpointRefusesAnonymousWrongAndViewerCallersAndChangesNothing() {
        String schema = "audit_test_authz_" + UUID.randomUUID().toString().substring(0, 8);
        String range = "{\"from\": \"2020-01-01T00:00:00Z\", \"to\": \"2020-01-01T00:00:01Z\"}";
        List<OperatorOnly.Endpoint> endpoints = List.of(
                new OperatorOnly.Endpoint("POST /api/v1/audit/replays/rebuild", request -> request.contentType(ContentType.JSON)
                        .body("{\"targetSchema\": \"" + schema + "\"}").post("/api/v1/audit/replays/rebuild")),
                new OperatorOnly.Endpoint("POST /api/v1/audit/replays/publish", request -> request.contentType(ContentType.JSON)
                        .body(range).post("/api/v1/audit/replays/publish")),
                RedriveAccess.redrive());

        long runsBefore = Database.count("SELECT count(*) FROM audit_test.replay_run");
        try (KafkaTestClient kafka = new KafkaTestClient()) {
            Map<TopicPartition, Long> deadLetters = kafka.mark(Topics.deadLetter("audit"));
            OperatorOnly.assertRefusedToAllButOperators(endpoints);
            RedriveAccess.assertNoRedriveMarker(kafka, deadLetters, Topics.deadLetter("audit"));
        }
        assertThat(Database.count("SELECT count(*) FROM audit_test.replay_run")).as("replay runs").isEqualTo(runsBefore);
        assertThat(Database.count("SELECT count(*) FROM information_schema.schemata WHERE schema_name = ?", schema))
                .as("the rebuild's schema").isZero();

        String runId = given().header("Authorization", OperatorOnly.OPERATOR).contentType(ContentType.JSON).body(range)
                .post("/api/v1/audit/replays/publish").then().statusCode(202).extract().path("id");
        assertThat(Database.count("SELECT count(*) FROM audit_test.replay_run WHERE id = ?::uuid AND actor = ?", runId,
                "operator:test-operator")).isEqualTo(1);
    }

}
