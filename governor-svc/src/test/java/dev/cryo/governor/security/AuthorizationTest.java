package dev.cryo.governor.security;

import dev.cryo.contracts.Topics;
import dev.cryo.testsupport.Infrastructure;
import dev.cryo.testsupport.KafkaTestClient;
import dev.cryo.testsupport.OperatorOnly;
import dev.cryo.testsupport.RedriveAccess;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

/**
 * Every state-changing endpoint of the governor: without credentials 401, with a wrong token 401, as a
 * viewer 403, and none of those changes a row of the operators' state in PostgreSQL (pauses, table resumes, policies,
 * engine settings) or publishes a dead-letter re-drive. An operator's change records the principal.
 */
@QuarkusTest
class AuthorizationTest {

    @Test
    void everyStateChangingEndpointRefusesAnonymousWrongAndViewerCallersAndChangesNothing() throws SQLException {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String pattern = "lake.authz_" + suffix + ".*";
        String pauseId = given().header("Authorization", OperatorOnly.OPERATOR).contentType(ContentType.JSON)
                .body("{\"pattern\": \"" + pattern + "\", \"reason\": \"authorization test\"}")
                .post("/api/v1/pauses").then().statusCode(201)
                .body("pausedBy", equalTo("operator:test-operator")).extract().path("id");
        given().header("Authorization", OperatorOnly.OPERATOR).contentType(ContentType.JSON).body("{\"cooldown\": \"PT5M\"}")
                .put("/api/v1/policies/" + pattern).then().statusCode(200).body("updatedBy", equalTo("operator:test-operator"));
        assertThat(row("SELECT paused_by FROM pause WHERE pause_id = '" + pauseId + "'")).isEqualTo("operator:test-operator");
        assertThat(row("SELECT updated_by FROM policy WHERE pattern = '" + pattern + "'")).isEqualTo("operator:test-operator");

        List<OperatorOnly.Endpoint> endpoints = List.of(
                new OperatorOnly.Endpoint("POST /api/v1/pauses", request -> request.contentType(ContentType.JSON)
                        .body("{\"pattern\": \"lake.authz_other_" + suffix + ".*\", \"reason\": \"x\"}").post("/api/v1/pauses")),
                new OperatorOnly.Endpoint("DELETE /api/v1/pauses/{id}", request -> request.delete("/api/v1/pauses/" + pauseId)),
                new OperatorOnly.Endpoint("POST /api/v1/tables/{table}/resume",
                        request -> request.post("/api/v1/tables/lake.authz_" + suffix + ".t/resume")),
                new OperatorOnly.Endpoint("PUT /api/v1/policies/{pattern}", request -> request.contentType(ContentType.JSON)
                        .body("{\"cooldown\": \"PT1H\"}").put("/api/v1/policies/" + pattern)),
                new OperatorOnly.Endpoint("DELETE /api/v1/policies/{pattern}", request -> request.delete("/api/v1/policies/" + pattern)),
                new OperatorOnly.Endpoint("PUT /api/v1/engines/{engine}", request -> request.contentType(ContentType.JSON)
                        .body("{\"slots\": 0}").put("/api/v1/engines/native")),
                RedriveAccess.redrive());

        String before = operatorState();
        Map<TopicPartition, Long> deadLetters;
        try (KafkaTestClient kafka = new KafkaTestClient()) {
            deadLetters = kafka.mark(Topics.deadLetter("governor"));
            OperatorOnly.assertRefusedToAllButOperators(endpoints);
            assertThat(operatorState()).as("pauses, policies and engine settings").isEqualTo(before);
            RedriveAccess.assertNoRedriveMarker(kafka, deadLetters, Topics.deadLetter("governor"));
        }

        given().header("Authorization", OperatorOnly.OPERATOR).delete("/api/v1/pauses/" + pauseId).then().statusCode(204);
        given().header("Authorization", OperatorOnly.OPERATOR).delete("/api/v1/policies/" + pattern).then().statusCode(204);
    }

    /** The operators' state, as text: every pause, policy and engine setting (not the load readings, which the admission loop refreshes). */
    private static String operatorState() throws SQLException {
        return row("SELECT coalesce((SELECT string_agg(p::text, '|' ORDER BY p.pause_id) FROM pause p), '') || '#'"
                + " || coalesce((SELECT string_agg(p::text, '|' ORDER BY p.pattern) FROM policy p), '') || '#'"
                + " || coalesce((SELECT string_agg(r::text, '|' ORDER BY r.table_id) FROM table_resume r), '') || '#'"
                + " || coalesce((SELECT string_agg(concat_ws(',', e.engine, e.slots, e.max_foreign_queries, e.updated_by,"
                + " e.updated_at), '|' ORDER BY e.engine) FROM engine_setting e), '')");
    }

    private static String row(String sql) throws SQLException {
        try (Connection connection = DriverManager.getConnection(Infrastructure.jdbcUrl(), Infrastructure.dbUser(),
                Infrastructure.dbPassword()); Statement statement = connection.createStatement()) {
            statement.execute("SET search_path TO governor_test");
            try (ResultSet result = statement.executeQuery(sql)) {
                assertThat(result.next()).as(sql).isTrue();
                return result.getString(1);
            }
        }
    }

}
