package dev.cryo.audit;

import io.quarkus.logging.Log;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A burst of 50 000 events: the lag comes back to zero and every event is stored. */
@QuarkusTest
class BurstTest {

    private static final int EVENTS = 50_000;

    @Test
    void afterABurstTheLagReturnsToZeroAndNoEventIsMissing() throws Exception {
        String tag = "burst_" + UUID.randomUUID().toString().substring(0, 8);
        List<ProducerRecord<String, byte[]>> records = ReplayTest.chains(tag, EVENTS);
        Map<String, Long> produced = new TreeMap<>();
        records.forEach(record -> produced.merge(header(record, "ce_type"), 1L, Long::sum));
        List<String> ids = records.stream().map(record -> header(record, "ce_id")).toList();

        Instant start = Instant.now();
        BulkProducer.sendAll(records);
        Instant sent = Instant.now();
        await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofSeconds(1)).until(() ->
                Database.countOf(Database.SCHEMA, ids) >= EVENTS);
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(1)).until(() ->
                given().get("/api/v1/audit/ingest").then().statusCode(200).extract().jsonPath().getLong("totalLag") == 0);

        assertThat(Database.countsByType(Database.SCHEMA, ids)).isEqualTo(produced);
        Instant lastStored;
        try (Connection owner = Database.owner(); PreparedStatement select = owner.prepareStatement(
                "SELECT max(recorded_at) FROM " + Database.SCHEMA + ".audit_event WHERE event_id = ANY (?)")) {
            select.setArray(1, owner.createArrayOf("text", ids.toArray()));
            try (ResultSet result = select.executeQuery()) {
                result.next();
                lastStored = result.getObject(1, OffsetDateTime.class).toInstant();
            }
        }
        long millis = Math.max(1, Duration.between(start, lastStored).toMillis());
        JsonPath verify = given().get("/api/v1/audit/verify").then().statusCode(200).extract().jsonPath();
        Log.infof("BurstTest: %d events sent in %d ms; all stored %d ms after the first was sent: %d events/s; "
                        + "verify %s over %d rows in %d ms", EVENTS, Duration.between(start, sent).toMillis(), millis,
                EVENTS * 1000L / millis, verify.getString("status"), verify.getLong("rowsChecked"),
                verify.getLong("durationMillis"));
        assertThat(verify.getString("status")).isEqualTo("OK");
        assertThat(verify.getLong("rowsChecked")).isGreaterThanOrEqualTo(EVENTS);
    }

    private static String header(ProducerRecord<String, byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return new String(header.value(), StandardCharsets.UTF_8);
    }
}
