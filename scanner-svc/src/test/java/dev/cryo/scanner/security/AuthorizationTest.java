package dev.cryo.scanner.security;

import dev.cryo.contracts.Topics;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.TableChanged;
import dev.cryo.contracts.kafka.KafkaEnvelopes;
import dev.cryo.scanner.app.TestCatalogResource;
import dev.cryo.testsupport.Infrastructure;
import dev.cryo.testsupport.KafkaTestClient;
import dev.cryo.testsupport.OperatorOnly;
import dev.cryo.testsupport.RedriveAccess;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every state-changing endpoint of the scanner (fix now, the webhook, an orphan listing, sweep now, a
 * dead-letter re-drive): without credentials 401, with a wrong token 401, as a viewer 403, and none of them writes
 * the table's state in PostgreSQL or publishes a TableChanged; the operator's own call afterwards is the
 * only change published, with the operator as its actor.
 */
@QuarkusTest
@QuarkusTestResource(TestCatalogResource.class)
class AuthorizationTest {

    @Test
    void everyStateChangingEndpointRefusesAnonymousWrongAndViewerCallersAndChangesNothing() throws SQLException {
        String table = TestCatalogResource.CATALOG + ".sales.authz_" + UUID.randomUUID().toString().substring(0, 8);
        String notification = "{\"catalog\": \"" + TestCatalogResource.CATALOG + "\", \"namespace\": \"sales\", \"table\": \""
                + table.substring(table.lastIndexOf('.') + 1) + "\"}";
        List<OperatorOnly.Endpoint> endpoints = List.of(
                new OperatorOnly.Endpoint("POST /api/v1/scans", request -> request.contentType(ContentType.JSON)
                        .body("{\"table\": \"" + table + "\"}").post("/api/v1/scans")),
                new OperatorOnly.Endpoint("POST /api/v1/notifications", request -> request.contentType(ContentType.JSON)
                        .body(notification).post("/api/v1/notifications")),
                new OperatorOnly.Endpoint("POST /api/v1/tables/{table}/orphan-listing", request -> request
                        .post("/api/v1/tables/" + table + "/orphan-listing")),
                new OperatorOnly.Endpoint("POST /api/v1/sweeps", request -> request.contentType(ContentType.JSON)
                        .body("{\"catalog\": \"" + TestCatalogResource.CATALOG + "\"}").post("/api/v1/sweeps")),
                RedriveAccess.redrive());

        try (KafkaTestClient kafka = new KafkaTestClient()) {
            Map<TopicPartition, Long> changes = kafka.mark(Topics.TABLE_CHANGED);
            Map<TopicPartition, Long> deadLetters = kafka.mark(Topics.deadLetter("scanner"));
            long stateBefore = rowsOf(table);
            OperatorOnly.assertRefusedToAllButOperators(endpoints);
            assertThat(rowsOf(table)).as("rows of the table in table_state and watched_pointer").isEqualTo(stateBefore);
            RedriveAccess.assertNoRedriveMarker(kafka, deadLetters, Topics.deadLetter("scanner"));

            given().header("Authorization", OperatorOnly.OPERATOR).contentType(ContentType.JSON).body(notification)
                    .post("/api/v1/notifications").then().statusCode(202);
            List<ConsumerRecord<String, byte[]>> published = kafka.readAfter(changes, Duration.ofSeconds(30),
                    records -> records.stream().anyMatch(r -> table.equals(r.key())));
            List<EventEnvelope<CryoEvent>> ofTable = published.stream().filter(r -> table.equals(r.key()))
                    .map(KafkaEnvelopes::fromRecord).toList();
            assertThat(ofTable).as("only the operator's change").hasSize(1);
            assertThat(published).as("no sweep was started by a refused call").map(KafkaEnvelopes::fromRecord)
                    .noneMatch(envelope -> envelope.data() instanceof TableChanged change
                            && change.source() == dev.cryo.contracts.event.ChangeSource.SWEEP);
            assertThat(((TableChanged) ofTable.get(0).data()).actor()).isEqualTo("operator:test-operator");
        }
    }

    private static long rowsOf(String table) throws SQLException {
        try (Connection connection = DriverManager.getConnection(Infrastructure.jdbcUrl(), Infrastructure.dbUser(),
                Infrastructure.dbPassword());
             PreparedStatement count = connection.prepareStatement("SELECT (SELECT count(*) FROM scanner_test.table_state"
                     + " WHERE table_id = ?) + (SELECT count(*) FROM scanner_test.watched_pointer WHERE table_id = ?)")) {
            count.setString(1, table);
            count.setString(2, table);
            try (ResultSet result = count.executeQuery()) {
                result.next();
                return result.getLong(1);
            }
        }
    }

}
