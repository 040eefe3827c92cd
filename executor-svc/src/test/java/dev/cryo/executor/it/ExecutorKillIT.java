package dev.cryo.executor.it;

import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.Topics;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.JobAdmitted;
import dev.cryo.contracts.event.JobFinished;
import dev.cryo.contracts.event.JobOutcome;
import dev.cryo.contracts.event.JobStarted;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.contracts.event.PartitionPredicate;
import dev.cryo.contracts.kafka.KafkaEnvelopes;
import dev.cryo.executor.Jobs;
import dev.cryo.executor.WarehouseResource;
import dev.cryo.executor.engine.CommitTags;
import dev.cryo.executor.iceberg.TestTables;
import dev.cryo.iceberg.catalog.CatalogRegistry;
import dev.cryo.iceberg.fingerprint.Fingerprint;
import dev.cryo.iceberg.fingerprint.Fingerprints;
import dev.cryo.iceberg.fixtures.SampleTables;
import dev.cryo.testsupport.Infrastructure;
import dev.cryo.testsupport.KafkaTestClient;
import dev.cryo.testsupport.NeedsInfrastructure;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The kill test: two packaged executors (target/quarkus-app/quarkus-run.jar) in one consumer
 * group. The first is killed with SIGKILL after its first chunk commit shows in the table
 * history; the second takes the job over once the first one's lease (attempt heartbeat) expired,
 * and completes it. No chunk is committed twice and the table's rows are unchanged.
 */
@NeedsInfrastructure
class ExecutorKillIT {

    private static final int CHUNKS = 6;

    @TempDir
    Path warehouse;

    private final List<Process> processes = new ArrayList<>();

    @AfterEach
    void stopExecutors() {
        processes.forEach(Process::destroyForcibly);
    }

    @Test
    void aSecondExecutorFinishesTheJobOfAKilledOneWithoutCommittingAChunkTwice() throws Exception {
        Map<String, String> catalog = WarehouseResource.catalogProperties(warehouse);
        String group = "cryo-executor-kill-" + UUID.randomUUID();
        String jobId = "job-kill-" + UUID.randomUUID();
        try (CatalogRegistry registry = CatalogRegistry.create(Map.of(WarehouseResource.CATALOG, catalog));
             KafkaTestClient kafka = new KafkaTestClient()) {
            Table table = createTable(registry);
            // Twelve appends over six days: twelve small files in each of six partitions, one chunk each.
            TestTables.fill(table, 12, 1000 * CHUNKS, CHUNKS, 100);
            Fingerprint before = Fingerprints.ofTable(table);
            List<List<PartitionPredicate>> chunks = chunks(table);
            assertThat(chunks).hasSize(CHUNKS);
            TableId tableId = TableId.of(WarehouseResource.CATALOG, "maintenance", table.name()
                    .substring(table.name().lastIndexOf('.') + 1));
            KafkaTestClient.startGroupAtEnd(group, Topics.JOBS_ADMITTED);

            Process first = start("first", group, catalog);
            awaitMembers(group, 1);
            var mark = Jobs.markResults(kafka);
            EventEnvelope<JobAdmitted> admitted = Jobs.admitted(tableId, jobId, List.of(
                    Jobs.chunked(Operation.OPTIMIZE, OperationParameters.NONE, chunks)));
            kafka.send(KafkaEnvelopes.toRecord(admitted));

            await().atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofMillis(100))
                    .until(() -> chunkCommits(registry, tableId, jobId).size() >= 1);
            first.destroyForcibly();
            first.waitFor(30, TimeUnit.SECONDS);
            int committedByFirst = chunkCommits(registry, tableId, jobId).size();
            assertThat(committedByFirst).as("the first executor was killed mid-job").isLessThan(CHUNKS);

            start("second", group, catalog);
            List<EventEnvelope<CryoEvent>> results = Jobs.resultsUntilFinished(kafka, mark, jobId, Duration.ofMinutes(6));

            JobFinished finished = (JobFinished) results.get(results.size() - 1).data();
            assertThat(finished.outcome()).isEqualTo(JobOutcome.SUCCEEDED);
            List<JobStarted> starts = results.stream().map(EventEnvelope::data).filter(JobStarted.class::isInstance)
                    .map(JobStarted.class::cast).toList();
            assertThat(starts).extracting(JobStarted::attempt).containsExactly(1, 2);
            assertThat(starts.get(1).executorId()).isNotEqualTo(starts.get(0).executorId());
            assertThat(starts.get(1).chunksAlreadyCommitted()).isEqualTo(committedByFirst);
            List<String> commits = chunkCommits(registry, tableId, jobId);
            assertThat(commits).hasSize(CHUNKS).doesNotHaveDuplicates();
            Table after = registry.load(tableId);
            assertThat(Fingerprints.ofTable(after)).isEqualTo(before);
            assertThat(TestTables.dataFiles(after)).hasSize(CHUNKS);
        }
    }

    // ------------------------------------------------------------------ helpers

    private Process start(String name, String group, Map<String, String> catalog) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        String jar = System.getProperty("executor.jar", "target/quarkus-app/quarkus-run.jar");
        List<String> command = new ArrayList<>(List.of(java, "-Xmx512m",
                "-Dquarkus.http.port=0",
                "-Dquarkus.http.host=127.0.0.1",
                "-Dcryo.service.schema=executor_it",
                "-Dcryo.executor.heartbeat-interval=PT1S",
                "-Dcryo.executor.lease-timeout=PT5S",
                "-Dcryo.executor.held-job-wait=PT60S",
                "-Dcryo.executor.ignore-unknown-catalogs=true",
                "-Dmp.messaging.connector.smallrye-kafka.group.id=" + group,
                "-Dmp.messaging.connector.smallrye-kafka.session.timeout.ms=8000",
                "-Dmp.messaging.connector.smallrye-kafka.heartbeat.interval.ms=1000"));
        catalog.forEach((key, value) -> command.add("-Dcryo.catalogs." + WarehouseResource.CATALOG + "." + key + "=" + value));
        command.addAll(List.of("-jar", jar));
        File log = Path.of("target", "kill-it-" + name + ".log").toFile();
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log);
        // as the executor's own principal: its ACLs are what this test runs under
        builder.environment().putAll(Infrastructure.kafkaServiceEnvironment("executor"));
        Process process = builder.start();
        processes.add(process);
        return process;
    }

    private static void awaitMembers(String group, int members) {
        await().atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofMillis(500)).until(() -> {
            try (Admin admin = admin()) {
                ConsumerGroupDescription description = admin.describeConsumerGroups(List.of(group)).all().get().get(group);
                return description.members().size() >= members && description.members().stream()
                        .allMatch(member -> !member.assignment().topicPartitions().isEmpty());
            }
        });
    }

    private static Admin admin() {
        return Admin.create(Infrastructure.kafkaAdminClient());
    }

    private static Table createTable(CatalogRegistry registry) {
        var catalog = registry.catalog(WarehouseResource.CATALOG);
        Namespace namespace = Namespace.of("maintenance");
        if (!((SupportsNamespaces) catalog).namespaceExists(namespace)) {
            ((SupportsNamespaces) catalog).createNamespace(namespace);
        }
        return catalog.createTable(TableIdentifier.of(namespace, "kill_" + UUID.randomUUID().toString().substring(0, 8)),
                SampleTables.EVENTS, PartitionSpec.builderFor(SampleTables.EVENTS).day("event_ts").build(),
                Map.of(TableProperties.FORMAT_VERSION, "2"));
    }

    private static List<List<PartitionPredicate>> chunks(Table table) {
        List<List<PartitionPredicate>> chunks = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        for (DataFile file : TestTables.dataFiles(table)) {
            if (!seen.contains(file.partition().toString())) {
                seen.add(file.partition().toString());
                chunks.add(List.of(TestTables.predicateOf(table, file)));
            }
        }
        return chunks;
    }

    private static List<String> chunkCommits(CatalogRegistry registry, TableId tableId, String jobId) {
        Table table = registry.load(tableId);
        List<String> chunks = new ArrayList<>();
        for (Snapshot snapshot : table.snapshots()) {
            if (jobId.equals(snapshot.summary().get(CommitTags.JOB_ID))) {
                chunks.add(snapshot.summary().get(CommitTags.CHUNK));
            }
        }
        return chunks;
    }
}
