package dev.cryo.scanner.security;

import dev.cryo.contracts.TableId;
import dev.cryo.contracts.Topics;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.ChangeSource;
import dev.cryo.contracts.event.TableChanged;
import dev.cryo.contracts.kafka.KafkaEnvelopes;
import dev.cryo.scanner.app.TestCatalogResource;
import dev.cryo.testsupport.HostileRecords;
import dev.cryo.testsupport.HostileRequests;
import dev.cryo.testsupport.KafkaTestClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static dev.cryo.testsupport.OperatorOnly.OPERATOR;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

/**
 * Bad input on the topic the scanner reads (table changes) is dead-lettered with the reason and the
 * original headers, and the next good change is still recorded; hostile webhook and REST bodies get a
 * 4xx that says what is wrong, and never an echo of a huge body.
 */
@QuarkusTest
@QuarkusTestResource(TestCatalogResource.class)
class HostileInputTest {

    static final String CATALOG = TestCatalogResource.CATALOG;

    @Test
    void hostileChangesAreDeadLetteredAndTheNextChangeIsStillRecorded() {
        TableId table = TableId.of(CATALOG, "sales", "hostile_" + UUID.randomUUID().toString().substring(0, 8));
        // A valid change whose metadata location climbs out of the warehouse: the scanner reads tables
        // from its catalog, never from a location an event names, so it is recorded like any change.
        EventEnvelope<TableChanged> good = EventEnvelope.startChain(new TableChanged(table, ChangeSource.WEBHOOK, Instant.now(),
                null, null, null, null, "file:///../../../../etc/passwd", null, null), "/cryo/test", Instant.now());
        List<ProducerRecord<String, byte[]>> hostile = HostileRecords.of(KafkaEnvelopes.toRecord(good), "source");
        try (KafkaTestClient kafka = new KafkaTestClient()) {
            Map<TopicPartition, Long> dead = kafka.mark(Topics.deadLetter("scanner"));
            hostile.forEach(kafka::send);
            kafka.send(KafkaEnvelopes.toRecord(good));

            HostileRecords.assertDeadLettered(kafka, dead, hostile, Topics.TABLE_CHANGED);
            await().atMost(Duration.ofSeconds(60)).until(() -> given().get("/api/v1/tables").then().statusCode(200)
                    .extract().jsonPath().getList("table").contains(table.toString()));
        }
        // The table does not exist in the catalog: its scan failed with a reason, and nothing was read from /etc.
        await().atMost(Duration.ofSeconds(60)).until(() -> given().get("/api/v1/tables").then().extract().jsonPath()
                .getString("find { it.table == '" + table + "' }.lastError") != null);
        assertThat(given().get("/api/v1/tables").then().extract().asString()).doesNotContain("root:");
    }

    @Test
    void hostileWebhookBodiesGetAClearFourHundred() {
        notification("{\"catalog\": \"" + CATALOG + "\", \"namespace\": ").then().statusCode(400)
                .body("message", startsWith("Cannot accept notification: the body is not valid JSON"));
        notification("[1, 2, 3]").then().statusCode(400)
                .body("message", equalTo("Cannot accept notification: the body must be a JSON object"));
        notification("{\"catalog\": \"" + CATALOG + "\", \"namespace\": \"sales\"}").then().statusCode(400)
                .body("message", equalTo("Cannot accept notification: field 'table' is missing"));
        // A webhook is a tolerant reader (catalogs add fields of their own): an unknown field is ignored.
        notification("{\"catalog\": \"" + CATALOG + "\", \"namespace\": \"sales\", \"table\": \"unknown_field\", \"admin\": true}")
                .then().statusCode(202).body("table", equalTo(CATALOG + ".sales.unknown_field"));
        notification("{\"catalog\": \"" + CATALOG + "\", \"namespace\": \"sales\", \"table\": \"" + "t".repeat(20_000) + "\"}")
                .then().statusCode(400).body("message", startsWith("Cannot accept notification: the body has 20"))
                .body("message", containsString("more than cryo.scanner.max-notification-bytes"))
                .body("message.length()", lessThan(200));
        notification("{\"catalog\": \"" + CATALOG + "\", \"namespace\": \"sales\", \"table\": \"" + "t".repeat(2_000_000) + "\"}")
                .then().statusCode(413);
        notification("{\"catalog\": \"" + CATALOG + "\", \"namespace\": \"sales\", \"table\": \"orders`; DROP TABLE table_state; --\"}")
                .then().statusCode(400).body("message", equalTo("Cannot accept notification: Cannot create table id: table"
                        + " 'orders`; DROP TABLE table_state; --' contains '.', '`' or a control character"));
        notification("{\"catalog\": \"" + CATALOG + "\", \"namespace\": \"../../etc\", \"table\": \"passwd\"}")
                .then().statusCode(400).body("message", equalTo("Cannot accept notification: Cannot create table id:"
                        + " namespace level is blank"));
        notification("{\"catalog\": \"" + CATALOG + "\", \"namespace\": \"sales\", \"table\": \"t\", \"snapshotId\": \"1 OR 1=1\"}")
                .then().statusCode(400).body("message", equalTo("Cannot accept notification: snapshotId must be an integer"));
        notification("{\"catalog\": \"x'; DROP TABLE table_state; --\", \"namespace\": \"sales\", \"table\": \"t\"}")
                .then().statusCode(404).body("message", startsWith("Cannot accept notification: catalog"
                        + " 'x'; DROP TABLE table_state; --' is not configured"));
        given().get("/api/v1/tables").then().statusCode(200);
    }

    @Test
    void hostileRestBodiesAndPathsGetAClearFourHundred() {
        scan("{\"table\": ").then().statusCode(400)
                .body("message", startsWith("Cannot read the request body: it is not valid JSON"));
        scan("{\"table\": \"" + CATALOG + ".sales.t\", \"admin\": true}").then().statusCode(400)
                .body("message", equalTo("Cannot read the request body: unknown field 'admin' (known fields: table)"));
        scan("{\"table\": \"" + CATALOG + ".sales." + "t".repeat(300_000) + "\"}").then().statusCode(400)
                .body("message", equalTo("Cannot create table id: table is longer than 255 characters"));
        // Quotes are allowed in names and reach SQL only as parameters: the table is looked up, not run.
        scan("{\"table\": \"" + CATALOG + ".sales.x'; DROP TABLE table_state; --\"}").then().statusCode(404)
                .body("message", equalTo("Cannot find table " + CATALOG + ".sales.x'; DROP TABLE table_state; --: catalog "
                        + CATALOG + " has no such table"));
        sweep("{\"catalog\": \"" + CATALOG + "\", \"namespace\": \"" + "n".repeat(300_000) + "\"}").then().statusCode(400)
                .body("message", equalTo("Cannot sweep: the namespace must be at most 1000 printable characters"));
        sweep("{\"catalog\": \"" + CATALOG + "\", \"namespace\": \"sales\\u0000; DROP TABLE table_state\"}").then()
                .statusCode(400).body("message", equalTo("Cannot sweep: the namespace must be at most 1000 printable characters"));
        // a quote in a name reaches no SQL: the catalog's listing is filtered in memory
        sweep("{\"catalog\": \"" + CATALOG + "\", \"namespace\": \"x'; DROP TABLE table_state; --\"}").then()
                .statusCode(404).body("message", containsString("it holds no table"));
        sweep("{\"catalog\": \"../../etc\"}").then().statusCode(404).body("code", equalTo("UNKNOWN_CATALOG"));
        sweep("[1, 2]").then().statusCode(400);
        given().get("/api/v1/tables").then().statusCode(200).body(not(containsString("DROP TABLE")));
    }

    @Test
    void malformedTableIdsAndHostileDeadLetterRequestsGetAClearFourHundred() {
        HostileRequests.assertTableIdsRefused("POST /api/v1/scans", CATALOG, id -> scan(HostileRequests.tableBody(id)));
        HostileRequests.assertTableIdsRefused("GET /api/v1/tables/{table}/scan", CATALOG,
                id -> given().get("/api/v1/tables/{table}/scan", id));
        HostileRequests.assertTableIdsRefused("POST /api/v1/tables/{table}/orphan-listing", CATALOG,
                id -> given().header("Authorization", OPERATOR).post("/api/v1/tables/{table}/orphan-listing", id));
        HostileRequests.assertDeadLetterRequestsRefused();
    }

    private static io.restassured.response.Response notification(String body) {
        return given().header("Authorization", OPERATOR).contentType(ContentType.JSON).body(body).post("/api/v1/notifications");
    }

    private static io.restassured.response.Response sweep(String body) {
        return given().header("Authorization", OPERATOR).contentType(ContentType.JSON).body(body).post("/api/v1/sweeps");
    }

    private static io.restassured.response.Response scan(String body) {
        return given().header("Authorization", OPERATOR).contentType(ContentType.JSON).body(body).post("/api/v1/scans");
    }
}
