package dev.cryo.scanner.rest;

import dev.cryo.contracts.TableId;
import dev.cryo.contracts.Topics;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.ChangeSource;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.TableChanged;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.contracts.kafka.KafkaEnvelopes;
import dev.cryo.iceberg.fixtures.SampleTables;
import dev.cryo.iceberg.fixtures.TableWriter;
import dev.cryo.scanner.app.ScanFlowTest;
import dev.cryo.scanner.app.TestCatalogResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import static dev.cryo.testsupport.OperatorOnly.OPERATOR;
import static dev.cryo.testsupport.OperatorOnly.VIEWER;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

/**
 * The scanner's REST API on the running service: notifications and operators' scans and sweeps lead to
 * scans correlated with the request, bad requests get their reason, and the tables, their last scans
 * and the catalogs' health are readable.
 */
@QuarkusTest
@QuarkusTestResource(TestCatalogResource.class)
class ScannerApiTest extends ScanFlowTest {

    @Test
    void aNotificationLeadsToAScanCorrelatedWithItThatNamesItsCallerOnlyOnTheChange() {
        Table table = scannedTable("notified");
        Map<TopicPartition, Long> scans = kafka.mark(Topics.TABLE_SCANNED);
        Map<TopicPartition, Long> changes = kafka.mark(Topics.TABLE_CHANGED);

        String eventId = given().header("Authorization", OPERATOR).contentType(ContentType.JSON)
                .body("{\"catalog\":\"scannerit\",\"namespace\":\"sales\",\"table\":\"" + id(table).table()
                        + "\",\"snapshotId\":" + table.currentSnapshot().snapshotId() + ",\"extra\":true}")
                .post("/api/v1/notifications")
                .then().statusCode(202).body("table", equalTo(id(table).toString()))
                .extract().path("eventId");

        EventEnvelope<CryoEvent> scan = awaitEvent(scans, id(table), envelope -> eventId.equals(envelope.correlationId()));
        // a notification is the event flow, not a "fix now": the scan carries no actor, so the planner
        // plans only an unhealthy table and the governor keeps the cooldown; the audit still sees the caller
        assertThat(scan.actor()).isNull();
        EventEnvelope<CryoEvent> change = awaitEvent(changes, id(table), envelope -> eventId.equals(envelope.id()));
        assertThat(((TableChanged) change.data()).source()).isEqualTo(ChangeSource.WEBHOOK);
        assertThat(((TableChanged) change.data()).actor()).isEqualTo("operator:test-operator");
        assertThat(scan.source()).isEqualTo("/cryo/scanner");
        assertThat(((TableScanned) scan.data()).snapshotId()).isEqualTo(table.currentSnapshot().snapshotId());
    }

    @Test
    void badNotificationsAreRejectedWithTheReason() {
        notification(OPERATOR, "{not json").statusCode(400).body("message", containsString("not valid JSON"));
        notification(OPERATOR, "[1,2]").statusCode(400).body("message", containsString("must be a JSON object"));
        notification(OPERATOR, "{\"catalog\":\"scannerit\",\"table\":\"t\"}").statusCode(400)
                .body("message", equalTo("Cannot accept notification: field 'namespace' is missing"));
        notification(OPERATOR, "{\"catalog\":\"scannerit\",\"namespace\":\"sa`les\",\"table\":\"t\"}").statusCode(400)
                .body("message", containsString("contains '.', '`' or a control character"));
        notification(OPERATOR, "{\"catalog\":\"scannerit\",\"namespace\":\"sales\",\"table\":\"t\",\"snapshotId\":\"x\"}")
                .statusCode(400).body("message", equalTo("Cannot accept notification: snapshotId must be an integer"));
        notification(OPERATOR, "{\"catalog\":\"scannerit\",\"namespace\":\"sales\",\"table\":\"t\",\"pad\":\""
                + "x".repeat(17 * 1024) + "\"}").statusCode(400)
                .body("message", containsString("more than cryo.scanner.max-notification-bytes (16384)"));
        notification(OPERATOR, "{\"catalog\":\"elsewhere\",\"namespace\":\"sales\",\"table\":\"t\"}").statusCode(404)
                .body("message", containsString("catalog 'elsewhere' is not configured"));
        notification(VIEWER, "{\"catalog\":\"scannerit\",\"namespace\":\"sales\",\"table\":\"t\"}").statusCode(403);
        given().contentType(ContentType.JSON).body("{}").post("/api/v1/notifications").then().statusCode(401);
    }

    @Test
    void fixNowScansOneTableWithTheOperatorAsActor() {
        Table table = scannedTable("fix_now");
        Map<TopicPartition, Long> scans = kafka.mark(Topics.TABLE_SCANNED);
        Map<TopicPartition, Long> changes = kafka.mark(Topics.TABLE_CHANGED);

        String eventId = given().header("Authorization", OPERATOR).contentType(ContentType.JSON)
                .body("{\"table\":\"" + id(table) + "\"}").post("/api/v1/scans")
                .then().statusCode(202).extract().path("eventId");

        EventEnvelope<CryoEvent> scan = awaitEvent(scans, id(table), envelope -> eventId.equals(envelope.correlationId()));
        assertThat(scan.actor()).isEqualTo("operator:test-operator");
        EventEnvelope<CryoEvent> change = awaitEvent(changes, id(table), envelope -> eventId.equals(envelope.id()));
        assertThat(((TableChanged) change.data()).source()).isEqualTo(ChangeSource.MANUAL);
        assertThat(((TableChanged) change.data()).actor()).isEqualTo("operator:test-operator");
        assertThat(change.actor()).isEqualTo("operator:test-operator");

        given().header("Authorization", VIEWER).contentType(ContentType.JSON).body("{\"table\":\"" + id(table) + "\"}")
                .post("/api/v1/scans").then().statusCode(403);
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON)
                .body("{\"table\":\"scannerit.sales.no_such_table\"}").post("/api/v1/scans")
                .then().statusCode(404).body("message", containsString("has no such table"));
    }

    @Test
    void anOperatorsSweepOfOneNamespaceScansEachOfItsTablesAndOnlyThose() {
        Namespace other = Namespace.of("sweep_" + UUID.randomUUID().toString().substring(0, 8));
        ((SupportsNamespaces) catalogs.catalog(TestCatalogResource.CATALOG)).createNamespace(other);
        List<TableId> swept = new java.util.ArrayList<>();
        Map<TopicPartition, Long> firstScans = kafka.mark(Topics.TABLE_SCANNED);
        Map<TableId, Long> snapshots = new java.util.HashMap<>();
        for (int i = 0; i < 3; i++) {
            Table table = catalogs.catalog(TestCatalogResource.CATALOG).createTable(TableIdentifier.of(other, "t" + i),
                    SampleTables.EVENTS, PartitionSpec.unpartitioned());
            new TableWriter(table).append(SampleTables.events(new Random(i), 0, 10, START, Duration.ofDays(1), 2, 10));
            table.refresh();
            TableId id = TableId.of(TestCatalogResource.CATALOG, other.toString(), "t" + i);
            swept.add(id);
            snapshots.put(id, table.currentSnapshot().snapshotId());
        }
        // the watcher's own scans first: a change of theirs still pending would take the sweep's place in the scan
        for (TableId table : swept) {
            awaitScan(firstScans, table, envelope -> snapshots.get(table).equals(((TableScanned) envelope.data()).snapshotId()));
        }
        Table outside = scannedTable("not_swept");
        Map<TopicPartition, Long> changes = kafka.mark(Topics.TABLE_CHANGED);
        Map<TopicPartition, Long> scans = kafka.mark(Topics.TABLE_SCANNED);

        given().header("Authorization", OPERATOR).contentType(ContentType.JSON)
                .body("{\"catalog\": \"" + TestCatalogResource.CATALOG + "\", \"namespace\": \"" + other + "\"}")
                .post("/api/v1/sweeps").then().statusCode(202)
                .body("tables", equalTo(3))
                .body("catalogs." + TestCatalogResource.CATALOG, equalTo(3))
                .body("requestedBy", equalTo("operator:test-operator"));

        for (TableId table : swept) {
            EventEnvelope<CryoEvent> change = awaitEvent(changes, table,
                    envelope -> ((TableChanged) envelope.data()).source() == ChangeSource.SWEEP);
            assertThat(((TableChanged) change.data()).actor()).isEqualTo("operator:test-operator");
            awaitScan(scans, table, envelope -> envelope.correlationId().equals(change.id()));
        }
        List<ConsumerRecord<String, byte[]>> published = kafka.readGainedSince(changes, Topics.TABLE_CHANGED,
                Duration.ofSeconds(30));
        // the watcher may still announce the outside table's own commit; the sweep must not touch it
        assertThat(published).as("no sweep change of a table outside the namespace")
                .filteredOn(record -> id(outside).toString().equals(record.key()))
                .map(KafkaEnvelopes::fromRecord)
                .noneMatch(envelope -> ((TableChanged) envelope.data()).source() == ChangeSource.SWEEP);

        given().header("Authorization", OPERATOR).contentType(ContentType.JSON).body("{\"catalog\": \"elsewhere\"}")
                .post("/api/v1/sweeps").then().statusCode(404).body("code", equalTo("UNKNOWN_CATALOG"))
                .body("message", containsString("Cannot sweep catalog 'elsewhere': it is not configured here"));
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON).body("{\"namespace\": \"sales\"}")
                .post("/api/v1/sweeps").then().statusCode(400).body("message", containsString("name its catalog too"));
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON)
                .body("{\"catalog\": \"" + TestCatalogResource.CATALOG + "\", \"namespace\": \"nothing_here\"}")
                .post("/api/v1/sweeps").then().statusCode(404).body("message", containsString("it holds no table"));
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON).body("{\"catalog\": \"x\", \"everything\": true}")
                .post("/api/v1/sweeps").then().statusCode(400);
    }

    @Test
    void theRestApiShowsTablesTheirLastScanAndCatalogHealth() {
        Table table = scannedTable("listed");
        TableId id = id(table);

        given().get("/api/v1/tables").then().statusCode(200)
                .body("table", hasItem(id.toString()))
                .body("find { it.table == '" + id + "' }.lastSnapshotId", equalTo(table.currentSnapshot().snapshotId()))
                .body("find { it.table == '" + id + "' }.lastScanSource", org.hamcrest.Matchers.notNullValue());
        given().get("/api/v1/tables/" + id + "/scan").then().statusCode(200)
                .body("snapshotId", equalTo(table.currentSnapshot().snapshotId()))
                .body("totals.records", equalTo(20));
        given().get("/api/v1/tables/scannerit.sales.never_seen/scan").then().statusCode(404)
                .body("message", containsString("never scanned"));
        given().get("/api/v1/tables/not-a-table-id/scan").then().statusCode(400);
        given().get("/api/v1/catalogs").then().statusCode(200)
                .body("find { it.name == 'scannerit' }.reachable", equalTo(true))
                .body("find { it.name == 'scannerit' }.watchMethod", equalTo("one query over iceberg_tables"))
                .body("find { it.name == 'scannerit' }.tables", org.hamcrest.Matchers.greaterThanOrEqualTo(1));
        given().get("/q/metrics").then().statusCode(200)
                .body(containsString("cryo_scanner_scans_total{outcome=\"scanned\",source=\"watcher\"}"))
                .body(containsString("cryo_scanner_scan_duration_seconds_count"))
                .body(containsString("cryo_scanner_manifests_total{outcome=\"read\"}"))
                .body(containsString("cryo_scanner_manifests_total{outcome=\"cached\"}"))
                .body(containsString("cryo_scanner_change_to_scan_seconds_count"))
                .body(containsString("cryo_scanner_commit_to_scan_seconds_count"));
    }

    @Test
    void anOrphanListingOnDemandIsCarriedByTheNextScan() throws IOException {
        Table table = scannedTable("orphans");
        Path location = Path.of(java.net.URI.create(table.location()));
        Path orphan = Files.writeString(location.resolve("data/orphan-old.parquet"), "x".repeat(1000));
        Files.setLastModifiedTime(orphan, FileTime.from(Instant.now().minus(Duration.ofDays(10))));
        Files.writeString(location.resolve("data/orphan-young.parquet"), "young");
        Map<TopicPartition, Long> scans = kafka.mark(Topics.TABLE_SCANNED);

        given().header("Authorization", OPERATOR).post("/api/v1/tables/" + id(table) + "/orphan-listing")
                .then().statusCode(202);

        TableScanned scan = awaitScan(scans, id(table), envelope -> ((TableScanned) envelope.data()).orphans() != null).data();
        assertThat(scan.orphans().orphanFiles()).isEqualTo(1);
        assertThat(scan.orphans().orphanBytes()).isEqualTo(1000);
        assertThat(scan.orphans().ageFloor()).isEqualTo(Duration.ofDays(3));
        given().header("Authorization", VIEWER).post("/api/v1/tables/" + id(table) + "/orphan-listing")
                .then().statusCode(403);
    }


    private io.restassured.response.ValidatableResponse notification(String token, String body) {
        return given().header("Authorization", token).contentType(ContentType.JSON).body(body)
                .post("/api/v1/notifications").then();
    }
}
