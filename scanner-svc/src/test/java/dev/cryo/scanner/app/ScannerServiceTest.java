package dev.cryo.scanner.app;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.Topics;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.ChangeSource;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.JobFinished;
import dev.cryo.contracts.event.JobOutcome;
import dev.cryo.contracts.event.TableChanged;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.contracts.kafka.KafkaEnvelopes;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.iceberg.fixtures.SampleTables;
import dev.cryo.iceberg.fixtures.TableWriter;
import dev.cryo.reporter.KafkaCommitReporter;
import dev.cryo.scanner.persistence.PendingChange;
import dev.cryo.scanner.persistence.TableStateStore;
import dev.cryo.scanner.watch.Sweeps;
import dev.cryo.testsupport.Infrastructure;
import dev.cryo.testsupport.KafkaTestClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.function.Predicate;

import static dev.cryo.testsupport.OperatorOnly.OPERATOR;
import static dev.cryo.testsupport.OperatorOnly.VIEWER;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

/**
 * The scanner as a service on the real Kafka and PostgreSQL, with a JDBC catalog of its own:
 * every change source leads to a TableScanned on {@code cryo.table-scanned.v1}, bursts coalesce,
 * unreadable tables leave an error record, and the REST API shows what the scanner knows.
 */
@QuarkusTest
@QuarkusTestResource(TestCatalogResource.class)
class ScannerServiceTest {

    static final OffsetDateTime START = OffsetDateTime.of(2026, 11, 1, 0, 0, 0, 0, ZoneOffset.UTC);
    static final Namespace NAMESPACE = Namespace.of("sales");

    @Inject
    CatalogRegistry catalogs;
    @Inject
    Sweeps sweeps;
    @Inject
    TableStateStore store;
    @Inject
    dev.cryo.scanner.app.ScanWorkers workers;

    private KafkaTestClient kafka;

    @BeforeAll
    static void namespace() {
        // the catalog bean is not reachable from a static method: create the namespace on a second client
        try (CatalogRegistry registry = CatalogRegistry.create(Map.of(TestCatalogResource.CATALOG,
                TestCatalogResource.catalogProperties))) {
            SupportsNamespaces namespaces = (SupportsNamespaces) registry.catalog(TestCatalogResource.CATALOG);
            if (!namespaces.namespaceExists(NAMESPACE)) {
                namespaces.createNamespace(NAMESPACE);
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @BeforeEach
    void connect() {
        kafka = new KafkaTestClient();
    }

    @AfterEach
    void disconnect() {
        kafka.close();
    }

    @Test
    void aCommitIsNoticedByTheWatcherAndScannedWithinSeconds() {
        Map<TopicPartition, Long> changes = kafka.mark(Topics.TABLE_CHANGED);
        Map<TopicPartition, Long> scans = kafka.mark(Topics.TABLE_SCANNED);
        Table table = createTable("watched");
        TableId id = id(table);

        new TableWriter(table).append(SampleTables.events(new Random(1), 0, 20, START, Duration.ofDays(2), 3, 10));
        table.refresh();
        long snapshotId = table.currentSnapshot().snapshotId();

        TableScanned scan = awaitScan(scans, id, s -> Long.valueOf(snapshotId).equals(((TableScanned) s.data()).snapshotId())).data();
        assertThat(scan.totals().records()).isEqualTo(20);
        assertThat(scan.totals().partitions()).isEqualTo(2);
        EventEnvelope<CryoEvent> watched = awaitEvent(changes, id, envelope -> envelope.data() instanceof TableChanged change
                && change.source() == ChangeSource.WATCHER && Long.valueOf(snapshotId).equals(change.snapshotId()));
        assertThat(((TableChanged) watched.data()).metadataLocation()).endsWith(".metadata.json");
        assertThat(((TableChanged) watched.data()).sequenceNumber()).isEqualTo(1);
    }

    @Test
    void cryosOwnCommitIsRecognisedAndStillScanned() {
        Table table = scannedTable("own_commit");
        Map<TopicPartition, Long> changes = kafka.mark(Topics.TABLE_CHANGED);
        Map<TopicPartition, Long> scans = kafka.mark(Topics.TABLE_SCANNED);

        table.newFastAppend().appendFile(dev.cryo.scanner.iceberg.FakeFiles.dataFile(table, table.spec(), 20400, new Random(5)))
                .set("cryo.job-id", "job-42").commit();
        table.refresh();
        long snapshotId = table.currentSnapshot().snapshotId();

        EventEnvelope<CryoEvent> watched = awaitEvent(changes, id(table), envelope -> envelope.data() instanceof TableChanged change
                && Long.valueOf(snapshotId).equals(change.snapshotId()));
        assertThat(((TableChanged) watched.data()).cryoJobId()).isEqualTo("job-42");
        awaitScan(scans, id(table), envelope -> Long.valueOf(snapshotId).equals(((TableScanned) envelope.data()).snapshotId()));
    }

    @Test
    void aFinishedJobIsScannedAgainThoughItLeftTheSnapshotAsItWas() {
        Table table = scannedTable("after_job");
        long snapshotId = table.currentSnapshot().snapshotId();
        Map<TopicPartition, Long> changes = kafka.mark(Topics.TABLE_CHANGED);
        Map<TopicPartition, Long> scans = kafka.mark(Topics.TABLE_SCANNED);
        String jobId = "job-" + java.util.UUID.randomUUID();
        // An expiry that ran to the end: the current snapshot is the one already scanned.
        kafka.send(KafkaEnvelopes.toRecord(EventEnvelope.startChain(new JobFinished(jobId, "plan-1", id(table), Engine.NATIVE,
                JobOutcome.SUCCEEDED, 1, 0, java.time.Duration.ofSeconds(1), null, null, Instant.now()), "/cryo/test",
                Instant.now())));

        EventEnvelope<CryoEvent> change = awaitEvent(changes, id(table), envelope -> envelope.data() instanceof TableChanged c
                && jobId.equals(c.cryoJobId()));
        assertThat(((TableChanged) change.data()).source()).isEqualTo(ChangeSource.JOB);
        awaitScan(scans, id(table), envelope -> change.id().equals(envelope.correlationId())
                && Long.valueOf(snapshotId).equals(((TableScanned) envelope.data()).snapshotId()));
    }

    @Test
    void aChangeStoredButNeverScannedIsScannedWhenTheScannerResumes() {
        Table table = scannedTable("resumed");
        Map<TopicPartition, Long> scans = kafka.mark(Topics.TABLE_SCANNED);
        // as if the scanner stopped right after storing the change: stored, acknowledged, never queued
        EventEnvelope<TableChanged> stored = EventEnvelope.startChain(
                TableChanged.of(id(table), ChangeSource.COMMIT_REPORT, Instant.now()), "/cryo/test", Instant.now());
        assertThat(store.recordChange(stored)).isEqualTo(TableStateStore.Recorded.NEW);
        assertThat(store.recordChange(stored)).isEqualTo(TableStateStore.Recorded.REDELIVERED);

        assertThat(workers.resumePending()).isGreaterThanOrEqualTo(1);

        awaitEvent(scans, id(table), envelope -> stored.id().equals(envelope.correlationId()));
    }

    @Test
    void anOperatorsScanRequestStaysTheirsWhenACommitReportArrivesBeforeItsScan() {
        Table table = scannedTable("requested_then_committed");
        Map<TopicPartition, Long> scans = kafka.mark(Topics.TABLE_SCANNED);
        EventEnvelope<TableChanged> requested = EventEnvelope.startChain(new TableChanged(id(table), ChangeSource.MANUAL,
                Instant.now(), null, null, null, null, null, null, "operator:test-operator"), "/cryo/scanner", Instant.now())
                .withActor("operator:test-operator");
        EventEnvelope<TableChanged> reported = EventEnvelope.startChain(
                TableChanged.of(id(table), ChangeSource.COMMIT_REPORT, Instant.now()), "/cryo/reporter", Instant.now());
        assertThat(store.recordChange(requested)).isEqualTo(TableStateStore.Recorded.NEW);
        assertThat(store.recordChange(reported)).isEqualTo(TableStateStore.Recorded.NEW);

        PendingChange pending = store.pending(id(table)).orElseThrow();
        assertThat(pending.changeId()).isEqualTo(requested.id());
        assertThat(pending.source()).isEqualTo("manual");
        assertThat(pending.actor()).isEqualTo("operator:test-operator");
        workers.resumePending();
        EventEnvelope<CryoEvent> scan = awaitEvent(scans, id(table), envelope -> requested.id().equals(envelope.correlationId()));
        assertThat(scan.actor()).isEqualTo("operator:test-operator");
    }

    @Test
    void aCommitAnnouncedTwiceIsScannedOnce() {
        Table table = scannedTable("announced_twice");
        long scannedSnapshot = table.currentSnapshot().snapshotId();
        TableChanged sameCommit = new TableChanged(id(table), ChangeSource.COMMIT_REPORT, Instant.now(), scannedSnapshot,
                null, null, null, null, null, null);
        TableChanged manual = new TableChanged(id(table), ChangeSource.MANUAL, Instant.now(), scannedSnapshot,
                null, null, null, null, null, "operator:test-operator");

        assertThat(store.recordChange(EventEnvelope.startChain(sameCommit, "/cryo/test", Instant.now())))
                .isEqualTo(TableStateStore.Recorded.ALREADY_SCANNED);
        // an operator asking for a scan always gets one, even of a snapshot already scanned
        assertThat(store.recordChange(EventEnvelope.startChain(manual, "/cryo/test", Instant.now())))
                .isEqualTo(TableStateStore.Recorded.NEW);
    }

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
    void aBurstOfChangesCoalescesIntoAFewScansOfTheNewestSnapshot() {
        Table table = scannedTable("burst");
        TableId id = id(table);
        TableWriter writer = new TableWriter(table);
        Map<TopicPartition, Long> before = kafka.mark(Topics.TABLE_SCANNED);
        for (int commit = 0; commit < 3; commit++) {
            writer.append(SampleTables.events(new Random(commit), 10_000L + commit * 10, 5, START, Duration.ofDays(1), 2, 10));
        }
        table.refresh();
        long newestSnapshot = table.currentSnapshot().snapshotId();
        // the watcher's changes for these commits come first, so that the burst's last change is the last one
        awaitScan(before, id, envelope -> Long.valueOf(newestSnapshot).equals(((TableScanned) envelope.data()).snapshotId()));
        Map<TopicPartition, Long> scans = kafka.mark(Topics.TABLE_SCANNED);

        // a burst is many records at once: sent without waiting for each acknowledgement
        List<EventEnvelope<TableChanged>> burst = new java.util.ArrayList<>();
        try (org.apache.kafka.clients.producer.KafkaProducer<String, byte[]> producer = new org.apache.kafka.clients.producer.KafkaProducer<>(
                Infrastructure.kafkaAdminClient(Map.of("acks", "all")),
                new org.apache.kafka.common.serialization.StringSerializer(),
                new org.apache.kafka.common.serialization.ByteArraySerializer())) {
            for (int i = 0; i < 100; i++) {
                EventEnvelope<TableChanged> change = EventEnvelope.startChain(
                        TableChanged.of(id, ChangeSource.WEBHOOK, Instant.now()), "/cryo/test", Instant.now());
                producer.send(KafkaEnvelopes.toRecord(change));
                burst.add(change);
            }
            producer.flush();
        }
        String last = burst.get(burst.size() - 1).id();

        List<EventEnvelope<CryoEvent>> burstScans = scansOf(scans, id, read -> read.stream()
                .anyMatch(envelope -> last.equals(envelope.correlationId())));
        System.out.printf("a burst of 100 changes gave %d scan(s)%n", burstScans.size());
        assertThat(burstScans).hasSizeBetween(1, 25);
        TableScanned newest = (TableScanned) burstScans.get(burstScans.size() - 1).data();
        assertThat(newest.snapshotId()).isEqualTo(table.currentSnapshot().snapshotId());
    }

    @Test
    void aDroppedTableLeavesAnErrorRecordAndOtherTablesGoOn() {
        Table table = scannedTable("dropped");
        TableId id = id(table);
        catalogs.catalog(TestCatalogResource.CATALOG).dropTable(TableIdentifier.of(NAMESPACE, id.table()), false);
        kafka.send(KafkaEnvelopes.toRecord(EventEnvelope.startChain(
                TableChanged.of(id, ChangeSource.COMMIT_REPORT, Instant.now()), "/cryo/test", Instant.now())));

        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1)).until(() -> {
            List<Map<String, Object>> tables = given().get("/api/v1/tables").then().statusCode(200).extract().jsonPath()
                    .getList("$");
            return tables.stream().anyMatch(row -> id.toString().equals(row.get("table")) && row.get("lastError") != null
                    && row.get("lastError").toString().contains("no such table"));
        });
        scannedTable("after_dropped");
        given().get("/q/metrics").then().statusCode(200)
                .body(containsString("cryo_scanner_scan_errors_total{reason=\"not-found\"}"));
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

    @Test
    void aWriterWithTheCommitReporterGetsItsSnapshotScanned() throws Exception {
        Table created = createTable("reported");
        TableId id = id(created);
        Map<String, String> writerProperties = new HashMap<>(TestCatalogResource.catalogProperties);
        writerProperties.remove("jdbc.password");
        writerProperties.put(CatalogProperties.METRICS_REPORTER_IMPL, KafkaCommitReporter.class.getName());
        writerProperties.put(KafkaCommitReporter.BOOTSTRAP_SERVERS, Infrastructure.kafkaBootstrapServers());
        writerProperties.put(KafkaCommitReporter.CATALOG, TestCatalogResource.CATALOG);
        writerProperties.put(KafkaCommitReporter.ACTOR, "test-writer");
        // as the reporter's principal, whose ACLs allow table changes only
        writerProperties.putAll(KafkaCommitReporter.producerProperties(Infrastructure.kafkaSecurity("cryo-reporter")));
        Map<TopicPartition, Long> changes = kafka.mark(Topics.TABLE_CHANGED);
        Map<TopicPartition, Long> scans = kafka.mark(Topics.TABLE_SCANNED);

        long[] committed = ReportingWriter.run(id, writerProperties);
        long snapshotId = committed[0];
        long committedAt = committed[1];

        EventEnvelope<CryoEvent> reported = awaitEvent(changes, id, envelope -> envelope.data() instanceof TableChanged change
                && change.source() == ChangeSource.COMMIT_REPORT && Long.valueOf(snapshotId).equals(change.snapshotId()));
        EventEnvelope<CryoEvent> scan = awaitEvent(scans, id,
                envelope -> Long.valueOf(snapshotId).equals(((TableScanned) envelope.data()).snapshotId()));
        System.out.printf("commit -> commit report on Kafka: %d ms; commit -> TableScanned of that snapshot: %d ms"
                        + " (the scan is correlated with %s)%n",
                reported.time().toEpochMilli() - committedAt, scan.time().toEpochMilli() - committedAt,
                scan.correlationId().equals(reported.id()) ? "the commit report" : "a watcher change of the same commit");
        assertThat(((TableChanged) reported.data()).actor()).isEqualTo("test-writer");
        assertThat(scan.actor()).as("a commit is no operator request").isNull();
        assertThat(reported.source()).isEqualTo("/cryo/commit-reporter");
        assertThat(((TableScanned) scan.data()).totals().records()).isEqualTo(10);
    }

    @Test
    void aSweepAsksForAScanOfEveryTable() {
        Table table = scannedTable("swept");
        Map<TopicPartition, Long> scans = kafka.mark(Topics.TABLE_SCANNED);
        Map<TopicPartition, Long> changes = kafka.mark(Topics.TABLE_CHANGED);

        assertThat(sweeps.sweep()).isGreaterThanOrEqualTo(1);

        EventEnvelope<CryoEvent> swept = awaitEvent(changes, id(table), envelope -> envelope.data() instanceof TableChanged change
                && change.source() == ChangeSource.SWEEP);
        awaitEvent(scans, id(table), envelope -> swept.id().equals(envelope.correlationId())
                || ((TableScanned) envelope.data()).snapshotId().equals(table.currentSnapshot().snapshotId()));
    }

    private io.restassured.response.ValidatableResponse notification(String token, String body) {
        return given().header("Authorization", token).contentType(ContentType.JSON).body(body)
                .post("/api/v1/notifications").then();
    }

    /** A new table with one commit, already scanned once (so later scans are caused by the test). */
    private Table scannedTable(String name) {
        Map<TopicPartition, Long> scans = kafka.mark(Topics.TABLE_SCANNED);
        Table table = createTable(name);
        new TableWriter(table).append(SampleTables.events(new Random(2), 0, 20, START, Duration.ofDays(2), 3, 10));
        table.refresh();
        long snapshotId = table.currentSnapshot().snapshotId();
        awaitScan(scans, id(table), envelope -> Long.valueOf(snapshotId).equals(((TableScanned) envelope.data()).snapshotId()));
        return table;
    }

    private Table createTable(String name) {
        return catalogs.catalog(TestCatalogResource.CATALOG).createTable(
                TableIdentifier.of(NAMESPACE, name + "_" + UUID.randomUUID().toString().substring(0, 8)), SampleTables.EVENTS,
                PartitionSpec.builderFor(SampleTables.EVENTS).day("event_ts").build());
    }

    private static TableId id(Table table) {
        return TableId.of(TestCatalogResource.CATALOG, "sales", table.name().substring(table.name().lastIndexOf('.') + 1));
    }

    @SuppressWarnings("unchecked")
    private EventEnvelope<TableScanned> awaitScan(Map<TopicPartition, Long> mark, TableId table,
                                                  Predicate<EventEnvelope<CryoEvent>> match) {
        return (EventEnvelope<TableScanned>) (EventEnvelope<?>) awaitEvent(mark, table, match);
    }

    private EventEnvelope<CryoEvent> awaitEvent(Map<TopicPartition, Long> mark, TableId table,
                                           Predicate<EventEnvelope<CryoEvent>> match) {
        List<ConsumerRecord<String, byte[]>> read = kafka.readAfter(mark, Duration.ofSeconds(60),
                records -> records.stream().filter(r -> table.toString().equals(r.key()))
                        .map(KafkaEnvelopes::fromRecord).anyMatch(match));
        return read.stream().filter(r -> table.toString().equals(r.key())).map(KafkaEnvelopes::fromRecord)
                .filter(match).findFirst().orElseThrow();
    }

    private List<EventEnvelope<CryoEvent>> scansOf(Map<TopicPartition, Long> mark, TableId table,
                                                   Predicate<List<EventEnvelope<CryoEvent>>> until) {
        List<ConsumerRecord<String, byte[]>> read = kafka.readAfter(mark, Duration.ofSeconds(60),
                records -> until.test(records.stream().filter(r -> table.toString().equals(r.key()))
                        .map(KafkaEnvelopes::fromRecord).toList()));
        return read.stream().filter(r -> table.toString().equals(r.key())).map(KafkaEnvelopes::fromRecord).toList();
    }
}
