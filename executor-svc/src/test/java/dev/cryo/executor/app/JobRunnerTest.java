package dev.cryo.executor.app;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.JobAdmitted;
import dev.cryo.contracts.event.JobFinished;
import dev.cryo.contracts.event.JobHeartbeat;
import dev.cryo.contracts.event.JobOutcome;
import dev.cryo.contracts.event.JobStarted;
import dev.cryo.contracts.event.OperationFinished;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.contracts.event.OperationStatus;
import dev.cryo.contracts.event.PartitionPredicate;
import dev.cryo.contracts.kafka.KafkaEnvelopes;
import dev.cryo.enginesql.trino.TrinoSettings;
import dev.cryo.executor.Jobs;
import dev.cryo.executor.WarehouseResource;
import dev.cryo.executor.config.ExecutorConfig;
import dev.cryo.executor.engine.StepKey;
import dev.cryo.executor.engine.CommitTags;
import dev.cryo.executor.engine.StepRequest;
import dev.cryo.executor.iceberg.NativeEngine;
import dev.cryo.executor.iceberg.TestTables;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.iceberg.fingerprint.Fingerprint;
import dev.cryo.iceberg.fingerprint.Fingerprints;
import dev.cryo.iceberg.fixtures.SampleTables;
import dev.cryo.testsupport.KafkaClientTest;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.StreamSupport;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/** Jobs end to end: JobAdmitted on the real broker, real tables, results on cryo.jobs.results.v1, attempts in PostgreSQL. */
@QuarkusTest
@QuarkusTestResource(WarehouseResource.class)
class JobRunnerTest extends KafkaClientTest {

    @Inject
    CatalogRegistry catalogs;
    @Inject
    NativeEngine engine;
    @Inject
    ExecutorConfig config;

    @Test
    void aJobRunsItsOperationsInTheFixedOrderAndReportsEachStep() {
        Table table = createTable(catalogs);
        TestTables.fill(table, 6, 40, 2, 61);
        Fingerprint before = Fingerprints.ofTable(table);
        List<List<PartitionPredicate>> chunks = chunksPerPartition(table);
        String jobId = "job-" + UUID.randomUUID();
        EventEnvelope<JobAdmitted> admitted = Jobs.admitted(id(table), jobId, List.of(
                Jobs.chunked(Operation.OPTIMIZE, OperationParameters.NONE, chunks),
                Jobs.whole(Operation.COMPUTE_STATISTICS, OperationParameters.NONE),
                Jobs.whole(Operation.OPTIMIZE_MANIFESTS, OperationParameters.NONE),
                Jobs.whole(Operation.EXPIRE_SNAPSHOTS, new OperationParameters(null, Duration.ZERO, 2, null)),
                Jobs.whole(Operation.REMOVE_ORPHAN_FILES, new OperationParameters(null, null, null, Duration.ofHours(24)))));
        var mark = Jobs.markResults(kafka);

        kafka.send(KafkaEnvelopes.toRecord(admitted));

        List<EventEnvelope<CryoEvent>> results = Jobs.resultsUntilFinished(kafka, mark, jobId, Duration.ofSeconds(90));
        assertThat(results.get(0).data()).isInstanceOf(JobStarted.class);
        assertThat(((JobStarted) results.get(0).data()).attempt()).isEqualTo(1);
        List<OperationFinished> steps = results.stream().map(EventEnvelope::data)
                .filter(OperationFinished.class::isInstance).map(OperationFinished.class::cast).toList();
        assertThat(steps).extracting(step -> new StepKey(step.operation(), step.chunkIndex()).toString())
                .containsExactly("optimize:0", "optimize:1", "compute_statistics", "optimize_manifests",
                        "expire_snapshots", "remove_orphan_files");
        assertThat(steps).allMatch(step -> step.status() == OperationStatus.SUCCEEDED, "all succeeded");
        JobFinished finished = (JobFinished) results.get(results.size() - 1).data();
        assertThat(finished.outcome()).isEqualTo(JobOutcome.SUCCEEDED);
        assertThat(finished.operationsSucceeded()).isEqualTo(6);
        assertThat(results).allMatch(result -> result.correlationId().equals(admitted.correlationId())
                && "operator:test".equals(result.actor()), "correlation and actor carried over");

        table.refresh();
        assertThat(Fingerprints.ofTable(table)).isEqualTo(before);
        assertThat(TestTables.dataFiles(table)).hasSize(2);
        assertThat(table.statisticsFiles()).hasSize(1);
        // The five appends before the job expired; the job's start snapshot (its rollback point) and its own
        // commits (two optimize chunks, the manifest rewrite) stay until a later job's expiry.
        assertThat(StreamSupport.stream(table.snapshots().spliterator(), false).count()).isEqualTo(4);
        given().get("/api/v1/jobs/" + jobId).then().statusCode(200)
                .body("job.state", equalTo("finished")).body("job.outcome", equalTo("succeeded"))
                .body("steps.size()", equalTo(6));
    }

    @Test
    void aRedeliveredJobRepublishesItsResultWithoutCommittingAgain() {
        Table table = createTable(catalogs);
        TestTables.fill(table, 4, 30, 1, 62);
        String jobId = "job-" + UUID.randomUUID();
        EventEnvelope<JobAdmitted> admitted = Jobs.admitted(id(table), jobId, List.of(
                Jobs.chunked(Operation.OPTIMIZE, OperationParameters.NONE, chunksPerPartition(table))));
        var mark = Jobs.markResults(kafka);
        kafka.send(KafkaEnvelopes.toRecord(admitted));
        List<EventEnvelope<CryoEvent>> first = Jobs.resultsUntilFinished(kafka, mark, jobId, Duration.ofSeconds(60));
        table.refresh();
        long snapshotAfterFirst = table.currentSnapshot().snapshotId();
        var secondMark = Jobs.markResults(kafka);

        kafka.send(KafkaEnvelopes.toRecord(admitted));

        List<EventEnvelope<CryoEvent>> second = Jobs.resultsUntilFinished(kafka, secondMark, jobId, Duration.ofSeconds(60));
        assertThat(second).hasSize(1);
        assertThat(second.get(0).id()).isEqualTo(first.get(first.size() - 1).id());
        table.refresh();
        assertThat(table.currentSnapshot().snapshotId()).isEqualTo(snapshotAfterFirst);
    }

    @Test
    void aReRunJobSkipsTheChunkItsTableHistoryAlreadyHolds() {
        Table table = createTable(catalogs);
        TestTables.fill(table, 5, 30, 2, 63);
        Fingerprint before = Fingerprints.ofTable(table);
        List<List<PartitionPredicate>> chunks = chunksPerPartition(table);
        String jobId = "job-" + UUID.randomUUID();
        // An earlier attempt committed chunk 0 and died before recording it anywhere but in the table.
        long committed = engine.run(new StepRequest(id(table), jobId, StepKey.chunk(Operation.OPTIMIZE, 0), chunks.get(0),
                OperationParameters.NONE)).committedSnapshotId();
        var mark = Jobs.markResults(kafka);

        kafka.send(KafkaEnvelopes.toRecord(Jobs.admitted(id(table), jobId, List.of(
                Jobs.chunked(Operation.OPTIMIZE, OperationParameters.NONE, chunks)))));

        List<EventEnvelope<CryoEvent>> results = Jobs.resultsUntilFinished(kafka, mark, jobId, Duration.ofSeconds(60));
        assertThat(((JobStarted) results.get(0).data()).chunksAlreadyCommitted()).isEqualTo(1);
        List<OperationFinished> steps = results.stream().map(EventEnvelope::data)
                .filter(OperationFinished.class::isInstance).map(OperationFinished.class::cast).toList();
        assertThat(steps.get(0).status()).isEqualTo(OperationStatus.SKIPPED);
        assertThat(steps.get(0).committedSnapshotId()).isEqualTo(committed);
        assertThat(steps.get(1).status()).isEqualTo(OperationStatus.SUCCEEDED);
        table.refresh();
        assertThat(chunkCommits(table, jobId)).containsExactly("optimize:1", "optimize:0");
        assertThat(Fingerprints.ofTable(table)).isEqualTo(before);
    }

    @Test
    void aJobForAnUnknownTableFailsWithTheReasonAndTheConsumerGoesOn() {
        TableId missing = TableId.of(WarehouseResource.CATALOG, "maintenance", "missing_" + suffix());
        String jobId = "job-" + UUID.randomUUID();
        var mark = Jobs.markResults(kafka);

        kafka.send(KafkaEnvelopes.toRecord(Jobs.admitted(missing, jobId, List.of(
                Jobs.whole(Operation.OPTIMIZE_MANIFESTS, OperationParameters.NONE)))));

        List<EventEnvelope<CryoEvent>> results = Jobs.resultsUntilFinished(kafka, mark, jobId, Duration.ofSeconds(60));
        JobFinished finished = (JobFinished) results.get(results.size() - 1).data();
        assertThat(finished.outcome()).isEqualTo(JobOutcome.FAILED);
        assertThat(finished.errorCode()).isEqualTo("TABLE_NOT_FOUND");
        assertThat(finished.message()).contains("Cannot load table " + missing);
    }

    @Test
    void heartbeatsReportProgressWhileAJobRuns() {
        Table table = createTable(catalogs);
        TestTables.fill(table, 12, 400, 4, 64);
        String jobId = "job-" + UUID.randomUUID();
        var mark = Jobs.markResults(kafka);

        kafka.send(KafkaEnvelopes.toRecord(Jobs.admitted(id(table), jobId, List.of(
                Jobs.chunked(Operation.OPTIMIZE, OperationParameters.NONE, chunksPerPartition(table)),
                Jobs.whole(Operation.COMPUTE_STATISTICS, OperationParameters.NONE)))));

        List<EventEnvelope<CryoEvent>> results = Jobs.resultsUntilFinished(kafka, mark, jobId, Duration.ofSeconds(90));
        List<JobHeartbeat> beats = results.stream().map(EventEnvelope::data).filter(JobHeartbeat.class::isInstance)
                .map(JobHeartbeat.class::cast).toList();
        assertThat(beats).isNotEmpty();
        assertThat(beats).allMatch(beat -> beat.chunksTotal() == 4 && beat.chunksDone() <= 4);
    }

    @Test
    void configurationDefaults() {
        assertThat(config.concurrentJobs()).isEqualTo(2);
        assertThat(config.rewrite().minFileSizeRatio()).isEqualTo(0.75);
        assertThat(config.rewrite().maxFileSizeRatio()).isEqualTo(1.8);
        assertThat(config.rewrite().maxCommitAttempts()).isEqualTo(20);
        assertThat(config.rewrite().maxReplans()).isEqualTo(3);
        assertThat(config.rewrite().firstBackoff()).isEqualTo(Duration.ofMillis(200));
        assertThat(config.rewrite().maxBackoff()).isEqualTo(Duration.ofSeconds(5));
        assertThat(config.snapshots().defaultRetention()).isEqualTo(Duration.ofDays(5));
        assertThat(config.snapshots().defaultRetainLast()).isEqualTo(1);
        assertThat(config.orphans().defaultAgeFloor()).isEqualTo(Duration.ofDays(3));
        assertThat(config.orphans().dryRun()).isFalse();
        assertThat(config.ignoreUnknownCatalogs()).isTrue();
        assertThat(config.fallbackEngines()).containsExactly(Engine.NATIVE);
        assertThat(config.trino().jdbcUrl()).isEmpty();
        assertThat(config.trino().user()).isEqualTo("cryo");
        assertThat(config.trino().source()).isEqualTo("cryo");
        assertThat(config.trino().password()).isEmpty();
        assertThat(config.trino().queryTimeout()).isEqualTo(Duration.ofHours(1));
        assertThat(config.trino().catalogNames()).isEmpty();
        assertThat(config.trino().predicateForm()).isEqualTo(TrinoSettings.PredicateForm.COLUMNS_WHERE_EXACT);
        assertThat(config.spark().remote()).isEmpty();
        assertThat(config.spark().user()).isEqualTo("cryo");
        assertThat(config.spark().queryTimeout()).isEqualTo(Duration.ofHours(1));
        assertThat(config.spark().catalogNames()).isEmpty();
        // The test profile shortens these three and ignores other services' catalogs (application.properties, %test).
        assertThat(config.heartbeatInterval()).isEqualTo(Duration.ofMillis(500));
        assertThat(config.leaseTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(config.heldJobWait()).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void restAnswersWithReasons() {
        given().get("/api/v1/jobs/no-such-job").then().statusCode(404)
                .body("code", equalTo("JOB_NOT_FOUND")).body("message", containsString("Cannot find job no-such-job"));
        given().get("/api/v1/engines").then().statusCode(200).body("[0].engine", equalTo("native"))
                .body("[0].operations.size()", equalTo(7));
        given().get("/api/v1/engines/routing").then().statusCode(200).body("fallbackEngines", equalTo(List.of("native")));
        given().header("Authorization", "Bearer test-operator-token-0001").get("/api/v1/tables/exectest.maintenance.x/orphans?ageFloor=PT5M").then().statusCode(400)
                .body("message", containsString("the age floor must be at least PT24H"));
        given().get("/api/v1/jobs?limit=0").then().statusCode(400)
                .body("message", containsString("limit must be between 1 and 1000"));
    }

    // ------------------------------------------------------------------ helpers

    static Table createTable(CatalogRegistry catalogs) {
        var catalog = catalogs.catalog(WarehouseResource.CATALOG);
        Namespace namespace = Namespace.of("maintenance");
        if (!((SupportsNamespaces) catalog).namespaceExists(namespace)) {
            ((SupportsNamespaces) catalog).createNamespace(namespace);
        }
        return catalog.createTable(TableIdentifier.of(namespace, "jobs_" + suffix()), SampleTables.EVENTS,
                PartitionSpec.builderFor(SampleTables.EVENTS).day("event_ts").build(),
                Map.of(TableProperties.FORMAT_VERSION, "2"));
    }

    static TableId id(Table table) {
        String name = table.name().substring(table.name().lastIndexOf('.') + 1);
        return TableId.of(WarehouseResource.CATALOG, "maintenance", name);
    }

    static List<List<PartitionPredicate>> chunksPerPartition(Table table) {
        List<DataFile> files = TestTables.dataFiles(table);
        List<List<PartitionPredicate>> chunks = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        for (DataFile file : files) {
            if (!seen.contains(file.partition().toString())) {
                seen.add(file.partition().toString());
                chunks.add(List.of(TestTables.predicateOf(table, file)));
            }
        }
        return chunks;
    }

    static List<String> chunkCommits(Table table, String jobId) {
        List<String> chunks = new ArrayList<>();
        for (Snapshot snapshot = table.currentSnapshot(); snapshot != null;
             snapshot = snapshot.parentId() == null ? null : table.snapshot(snapshot.parentId())) {
            if (jobId.equals(snapshot.summary().get(CommitTags.JOB_ID))) {
                chunks.add(snapshot.summary().get(CommitTags.CHUNK));
            }
        }
        return chunks;
    }

    private static String suffix() {
        return UUID.randomUUID().toString().substring(0, 8);
    }
}
