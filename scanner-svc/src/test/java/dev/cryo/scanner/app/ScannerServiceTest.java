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
import dev.cryo.iceberg.fixtures.SampleTables;
import dev.cryo.iceberg.fixtures.TableWriter;
import dev.cryo.reporter.KafkaCommitReporter;
import dev.cryo.scanner.persistence.PendingChange;
import dev.cryo.scanner.persistence.TableStateStore;
import dev.cryo.scanner.watch.Sweeps;
import dev.cryo.testsupport.Infrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.function.Predicate;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;

/**
 * The scanner as a service: every change source (the watcher, Cryo's own commits, finished jobs, commit
 * reports, sweeps, changes stored before a restart) leads to a TableScanned on
 * {@code cryo.table-scanned.v1}; bursts coalesce and an unreadable table leaves an error record.
 */
@QuarkusTest
@QuarkusTestResource(TestCatalogResource.class)
class ScannerServiceTest extends ScanFlowTest {

    @Inject
    Sweeps sweeps;
    @Inject
    TableStateStore store;
    @Inject
    ScanWorkers workers;

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


    List<EventEnvelope<CryoEvent>> scansOf(Map<TopicPartition, Long> mark, TableId table,
                                                   Predicate<List<EventEnvelope<CryoEvent>>> until) {
        List<ConsumerRecord<String, byte[]>> read = kafka.readAfter(mark, Duration.ofSeconds(60),
                records -> until.test(records.stream().filter(r -> table.toString().equals(r.key()))
                        .map(KafkaEnvelopes::fromRecord).toList()));
        return read.stream().filter(r -> table.toString().equals(r.key())).map(KafkaEnvelopes::fromRecord).toList();
    }
}
