package dev.cryo.executor.app;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.Topics;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.JobAdmitted;
import dev.cryo.contracts.event.JobFinished;
import dev.cryo.contracts.event.JobOutcome;
import dev.cryo.contracts.event.JobRefused;
import dev.cryo.contracts.event.JobResult;
import dev.cryo.contracts.event.JobRevoked;
import dev.cryo.contracts.event.JobStarted;
import dev.cryo.contracts.event.OperationFinished;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.contracts.kafka.KafkaEnvelopes;
import dev.cryo.executor.Jobs;
import dev.cryo.executor.WarehouseResource;
import dev.cryo.executor.iceberg.TestTables;
import dev.cryo.executor.persistence.JobAttempts;
import dev.cryo.executor.persistence.JobRevocations;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.iceberg.fingerprint.Fingerprint;
import dev.cryo.iceberg.fingerprint.Fingerprints;
import dev.cryo.testsupport.KafkaClientTest;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;

import static dev.cryo.executor.app.JobRunnerTest.chunksPerPartition;
import static dev.cryo.executor.app.JobRunnerTest.createTable;
import static dev.cryo.executor.app.JobRunnerTest.id;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An executor verifies an admission before it acts: a stale one is refused without ending the
 * job, and a job whose table was paused after its admission is not started, or stops before its
 * next step. Real broker, PostgreSQL and tables.
 */
@QuarkusTest
@QuarkusTestResource(WarehouseResource.class)
class StaleAndRevokedJobsTest extends KafkaClientTest {

    @Inject
    CatalogRegistry catalogs;
    @Inject
    JobRevocations revocations;
    @Inject
    JobAttempts attempts;

    @Test
    void anAdmissionWhoseLeaseEndedIsRefusedAndALaterAdmissionOfTheSameJobRuns() {
        Table table = createTable(catalogs);
        TestTables.fill(table, 4, 30, 1, 71);
        long snapshotBefore = table.currentSnapshot().snapshotId();
        String jobId = "job-" + UUID.randomUUID();
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        var optimize = List.of(Jobs.chunked(Operation.OPTIMIZE, OperationParameters.NONE, chunksPerPartition(table)));
        EventEnvelope<JobAdmitted> stale = Jobs.admitted(id(table), jobId, Engine.NATIVE, optimize, now.minusSeconds(200),
                now.minusSeconds(80));
        var mark = Jobs.markResults(kafka);

        kafka.send(KafkaEnvelopes.toRecord(stale));

        List<EventEnvelope<CryoEvent>> results = until(mark, jobId, JobRefused.class);
        JobRefused refused = (JobRefused) results.get(results.size() - 1).data();
        assertThat(refused.reason()).isEqualTo("lease-expired");
        assertThat(refused.admittedAt()).isEqualTo(stale.data().admittedAt());
        assertThat(refused.message()).contains("was not started: its lease ended at " + stale.data().leaseExpiresAt(),
                "the governor admits it again or releases the table");
        assertThat(results).noneMatch(result -> result.data() instanceof JobStarted || result.data() instanceof JobFinished);
        table.refresh();
        assertThat(table.currentSnapshot().snapshotId()).as("nothing committed").isEqualTo(snapshotBefore);

        // The governor's next admission of the same job, with a fresh lease: the refusal ended nothing, so it runs.
        var secondMark = Jobs.markResults(kafka);
        kafka.send(KafkaEnvelopes.toRecord(Jobs.admitted(id(table), jobId, Engine.NATIVE, optimize, now, now.plusSeconds(300))));

        List<EventEnvelope<CryoEvent>> second = Jobs.resultsUntilFinished(kafka, secondMark, jobId, Duration.ofSeconds(60));
        assertThat(((JobStarted) second.get(0).data()).attempt()).isEqualTo(1);
        assertThat(((JobFinished) second.get(second.size() - 1).data()).outcome()).isEqualTo(JobOutcome.SUCCEEDED);
    }

    @Test
    void aStaleRecordOfAJobAnotherExecutorRunsIsLeftToItWithoutARefusal() {
        Table table = createTable(catalogs);
        TestTables.fill(table, 2, 30, 1, 74);
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        var optimize = List.of(Jobs.chunked(Operation.OPTIMIZE, OperationParameters.NONE, chunksPerPartition(table)));
        String running = "job-" + UUID.randomUUID();
        EventEnvelope<JobAdmitted> redelivered = Jobs.admitted(id(table), running, Engine.NATIVE, optimize, now.minusSeconds(600),
                now.minusSeconds(480));
        // Another executor claimed it and heartbeats: its admission record comes again in a rebalance, long after its lease.
        assertThat(attempts.claim(running, redelivered.data().planId(), id(table).toString(), "executor-elsewhere",
                Duration.ofMinutes(1))).isInstanceOf(JobAttempts.Claimed.class);
        String stale = "job-" + UUID.randomUUID();
        var mark = Jobs.markResults(kafka);

        kafka.send(KafkaEnvelopes.toRecord(redelivered));
        kafka.send(KafkaEnvelopes.toRecord(Jobs.admitted(id(table), stale, Engine.NATIVE, optimize, now.minusSeconds(600),
                now.minusSeconds(480))));

        until(mark, stale, JobRefused.class);
        await().pollDelay(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                assertThat(kafka.readGainedSince(mark, Topics.JOBS_RESULTS, Duration.ofSeconds(10)).stream()
                        .map(KafkaEnvelopes::fromRecord)
                        .filter(envelope -> envelope.data() instanceof JobResult result && result.jobId().equals(running)))
                        .as("no result for the job another executor runs").isEmpty());
    }

    @Test
    void aJobRevokedBeforeItStartsEndsCancelledWithoutTouchingTheTable() {
        Table table = createTable(catalogs);
        TestTables.fill(table, 4, 30, 1, 72);
        long snapshotBefore = table.currentSnapshot().snapshotId();
        String jobId = "job-" + UUID.randomUUID();
        EventEnvelope<JobAdmitted> admitted = Jobs.admitted(id(table), jobId, List.of(
                Jobs.chunked(Operation.OPTIMIZE, OperationParameters.NONE, chunksPerPartition(table))));
        Instant now = Instant.now();
        kafka.send(KafkaEnvelopes.toRecord(EventEnvelope.startChain(new JobRevoked(jobId, admitted.data().planId(), id(table),
                "pause-1", "table paused by operator:alice ('" + id(table) + "'): quarter close", now), "/cryo/governor", now)));
        // The revocation consumer notes it in PostgreSQL, where every executor looks before it starts a job.
        await().atMost(Duration.ofSeconds(30)).until(() -> revocations.of(jobId).isPresent());
        var mark = Jobs.markResults(kafka);

        kafka.send(KafkaEnvelopes.toRecord(admitted));

        List<EventEnvelope<CryoEvent>> results = Jobs.resultsUntilFinished(kafka, mark, jobId, Duration.ofSeconds(60));
        JobFinished finished = (JobFinished) results.get(results.size() - 1).data();
        assertThat(finished.outcome()).isEqualTo(JobOutcome.CANCELLED);
        assertThat(finished.errorCode()).isEqualTo("TABLE_PAUSED");
        assertThat(finished.message()).isEqualTo("not started: table paused by operator:alice ('" + id(table)
                + "'): quarter close (pause pause-1)");
        assertThat(results).noneMatch(result -> result.data() instanceof JobStarted || result.data() instanceof OperationFinished);
        table.refresh();
        assertThat(table.currentSnapshot().snapshotId()).isEqualTo(snapshotBefore);
    }

    @Test
    void aJobRevokedWhileItRunsStopsBeforeItsNextStepAndKeepsEveryRow() {
        Table table = createTable(catalogs);
        TestTables.fill(table, 6, 240, 12, 73);
        Fingerprint before = Fingerprints.ofTable(table);
        var chunks = chunksPerPartition(table);
        assertThat(chunks).hasSizeGreaterThanOrEqualTo(10);
        String jobId = "job-" + UUID.randomUUID();
        EventEnvelope<JobAdmitted> admitted = Jobs.admitted(id(table), jobId, List.of(
                Jobs.chunked(Operation.OPTIMIZE, OperationParameters.NONE, chunks)));
        var mark = Jobs.markResults(kafka);
        kafka.send(KafkaEnvelopes.toRecord(admitted));
        until(mark, jobId, OperationFinished.class);

        // Noted straight in PostgreSQL (the consumer's path is the test above): the job is between chunks now.
        revocations.note(new JobRevoked(jobId, admitted.data().planId(), id(table), "pause-2",
                "table paused by operator:alice: incident", Instant.now()));

        List<EventEnvelope<CryoEvent>> results = Jobs.resultsUntilFinished(kafka, mark, jobId, Duration.ofSeconds(120));
        JobFinished finished = (JobFinished) results.get(results.size() - 1).data();
        assertThat(finished.outcome()).isEqualTo(JobOutcome.CANCELLED);
        assertThat(finished.errorCode()).isEqualTo("TABLE_PAUSED");
        assertThat(finished.message()).startsWith("stopped before optimize:").endsWith(
                ": table paused by operator:alice: incident (pause pause-2)");
        long steps = results.stream().filter(result -> result.data() instanceof OperationFinished).count();
        assertThat(steps).isBetween(1L, (long) chunks.size() - 1);
        assertThat(finished.operationsSucceeded()).isEqualTo((int) steps);
        table.refresh();
        assertThat(Fingerprints.ofTable(table)).as("every row kept").isEqualTo(before);
    }

    private List<EventEnvelope<CryoEvent>> until(java.util.Map<org.apache.kafka.common.TopicPartition, Long> mark, String jobId,
                                                 Class<? extends JobResult> type) {
        return kafka.readAfter(mark, Duration.ofSeconds(60), read -> read.stream().map(KafkaEnvelopes::fromRecord)
                        .anyMatch(envelope -> type.isInstance(envelope.data()) && ((JobResult) envelope.data()).jobId().equals(jobId)))
                .stream().map(KafkaEnvelopes::fromRecord)
                .filter(envelope -> envelope.data() instanceof JobResult result && result.jobId().equals(jobId)).toList();
    }
}
