package dev.cryo.audit.security;

import dev.cryo.testsupport.SecretLeaks;
import dev.cryo.audit.SampleEvents;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.kafka.KafkaEnvelopes;
import dev.cryo.testsupport.KafkaTestClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import static dev.cryo.testsupport.OperatorOnly.OPERATOR;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;

/**
 * The audit writer's and the schema owner's database passwords reach PostgreSQL and nothing else:
 * with events stored and queried, and refused requests answered, neither the log, the stored audit
 * rows (payload and headers, as the API and the export return them) nor any API answer contains them.
 */
@QuarkusTest
@QuarkusTestResource(value = SecretsResource.class, restrictToAnnotatedClass = true)
class SecretsTest {

    static final String[] SECRETS = {SecretsResource.WRITER_PASSWORD, SecretsResource.OWNER_PASSWORD};

    @Test
    void theDatabasePasswordsAreInNoLogRowOrAnswer() throws IOException {
        TableId table = SampleEvents.uniqueTable("secret");
        List<EventEnvelope<? extends CryoEvent>> chain = SampleEvents.chain(table);
        try (KafkaTestClient kafka = new KafkaTestClient()) {
            chain.forEach(envelope -> kafka.send(KafkaEnvelopes.toRecord(envelope)));
        }
        List<String> ids = chain.stream().map(EventEnvelope::id).toList();
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofSeconds(1)).until(() -> given()
                .get("/api/v1/audit?limit=1000&table=" + table).then().statusCode(200).extract().jsonPath()
                .getList("items.eventId").containsAll(ids));

        given().header("Authorization", OPERATOR).contentType(ContentType.JSON).body("{\"targetSchema\": \"Not A Schema\"}")
                .post("/api/v1/audit/replays/rebuild").then().statusCode(400);
        SecretLeaks.assertNotInAnswers(List.of("/api/v1/audit?limit=1000&table=" + table, "/api/v1/audit/export?table=" + table,
                "/api/v1/audit/events/no-such-event", "/api/v1/audit/timeline/no-such-correlation", "/api/v1/audit/verify",
                "/api/v1/audit/ingest", "/api/v1/audit/replays", "/api/v1/audit/replays/not-a-run",
                "/api/v1/audit?kind=nonsense", "/api/v1/dead-letters", "/q/health", "/q/metrics", "/q/openapi"),
                SECRETS);
        SecretLeaks.assertNotInLog(SecretsResource.LOG, SECRETS);
    }
}
