package dev.cryo.faults;

import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.Topics;
import dev.cryo.contracts.event.JobAdmitted;
import dev.cryo.contracts.event.JobFinished;
import dev.cryo.contracts.event.JobOutcome;
import dev.cryo.contracts.event.JobStarted;
import dev.cryo.contracts.event.MaintenancePlanned;
import dev.cryo.contracts.event.OperationFinished;
import dev.cryo.contracts.event.OperationStatus;
import dev.cryo.testsupport.HostileRecords;
import dev.cryo.testsupport.Infrastructure;
import dev.cryo.testsupport.KafkaTestClient;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Fault injection on the real local stack: Kafka and PostgreSQL of {@code ./cryo infra up} and
 * the six packaged services as processes, started once for the class. Each scenario has tables
 * of its own, a writer appending to their partitions throughout, one fault, and the same end
 * checks ({@link Scenario#end()}).
 */
@Tag("faults")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FaultInjectionTest {

    /**
     * How long the broker stays down after it stopped: well past the 60 s after which a channel used to die
     * (a publish's acknowledgement wait, SmallRye's unprocessed-record age and the consumer's offset lookup
     * all gave up at 60 s), well within the 5 minutes the services now ride out (cryo.messaging.publish-timeout).
     */
    private static final Duration BROKER_OUTAGE = Duration.ofSeconds(90);
    /** The old limit the outage must exceed to prove anything. */
    private static final Duration OLD_OUTAGE_LIMIT = Duration.ofSeconds(60);
    /** Records of 6 MiB per event topic: three times the backlog that stopped the audit at every start. */
    private static final int HUGE_RECORDS_PER_TOPIC = 24;

    private final String namespace = "faults_" + UUID.randomUUID().toString().substring(0, 8);
    private final List<String> summaries = new ArrayList<>();
    private Stack stack;
    private Instant classStarted;

    @BeforeAll
    void startTheStack() {
        classStarted = Instant.now();
        stack = new Stack(Stack.checkout());
        stack.up();
        summaries.add("stack up: " + Duration.between(classStarted, Instant.now()).toSeconds() + " s");
    }

    @AfterAll
    void stopTheServices() {
        if (stack != null) {
            stack.close();
        }
        summaries.add("class: " + Duration.between(classStarted, Instant.now()).toSeconds() + " s");
        System.out.println(String.join("\n", summaries));
    }

    /**
     * An executor is SIGKILLed right after its first chunk commit of an optimize job, restarted,
     * and killed again after the next chunk commit; the third run finishes the job. Every chunk is
     * committed once, the attempts count up, and the job succeeds.
     */
    @Test
    @Order(1)
    void anExecutorKilledTwiceMidOptimizeLeavesEveryChunkCommittedOnce() {
        try (Scenario scenario = new Scenario(stack, namespace, "executor_kill")) {
            TableId table = scenario.tables(1, 14, 300, 120).get(0);
            scenario.awaitFullPlansQueued();
            scenario.resume();

            int firstKill = scenario.killExecutorAfterCommits(table, 1);
            stack.start("executor");
            int secondKill = scenario.killExecutorAfterCommits(table, firstKill + 1);
            stack.start("executor");

            JobFinished finished = scenario.awaitJobsFinished(Duration.ofMinutes(4)).stream()
                    .filter(job -> job.table().equals(table)).findFirst().orElseThrow();
            assertThat(finished.outcome()).as(finished.message() == null ? "succeeded" : finished.message())
                    .isEqualTo(JobOutcome.SUCCEEDED);
            List<JobStarted> starts = scenario.events().of(JobStarted.class).stream()
                    .filter(start -> start.jobId().equals(finished.jobId())).toList();
            assertThat(starts).extracting(JobStarted::attempt).as("attempts of job " + finished.jobId())
                    .doesNotHaveDuplicates().contains(1).hasSizeGreaterThanOrEqualTo(3);
            List<String> commits = scenario.jobCommits(table);
            assertThat(commits).as("commits of job " + finished.jobId()).doesNotHaveDuplicates()
                    .filteredOn(commit -> commit.startsWith(finished.jobId() + "/optimize:")).hasSize(Scenario.PARTITIONS);
            summaries.add("executor killed after chunk commits " + firstKill + " and " + secondKill + " of "
                    + Scenario.PARTITIONS + "; attempts " + starts.stream().map(JobStarted::attempt).toList());
            summaries.add(scenario.end());
        }
    }




    /**
     * The broker is stopped while optimize jobs run and the writer's commit reports flow to
     * Kafka, stays down for 90 s more (longer than the 60 s after which consumers' channels used to
     * die, as a slow broker restart is), and starts again on its data: the jobs finish, their events
     * arrive (nothing lost, nothing audited twice), and the pipeline works on: every table gets a
     * new plan from a commit made after the broker returned, and every service is ready and live
     * (no channel failed).
     */
    @Test
    @Order(2)
    void kafkaRestartedWhileJobsRunAndNotificationsFlow() {
        try (Scenario scenario = new Scenario(stack, namespace, "kafka_restart")) {
            List<TableId> tables = scenario.tables(3, 8, 200, 80);
            scenario.awaitFullPlansQueued();
            scenario.resume();
            await("a job running").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(200))
                    .until(() -> tables.stream().anyMatch(table -> scenario.optimizeCommits(table) >= 1));
            int commitsBefore = scenario.writer().commits();
            Instant stopped = Instant.now();
            stack.stopKafka();
            Instant unreachable = Instant.now();
            await("the broker stays down").during(BROKER_OUTAGE).atMost(BROKER_OUTAGE.plusSeconds(30))
                    .pollInterval(Duration.ofSeconds(1)).until(() -> !Stack.kafkaReachable());
            Instant starting = Instant.now();
            stack.startKafka();
            Instant back = Instant.now();
            Duration outage = Duration.between(stopped, back);
            int commitsDuring = scenario.writer().commits() - commitsBefore;
            Duration confirmedDown = Duration.between(unreachable, starting);
            assertThat(confirmedDown).as("time the broker was confirmed unreachable (from its stop to its start):"
                    + " longer than the old " + OLD_OUTAGE_LIMIT + " limit").isGreaterThan(OLD_OUTAGE_LIMIT);

            List<JobFinished> finished = scenario.awaitJobsFinished(Duration.ofMinutes(4));
            assertThat(finished).as("jobs that were still running when the broker stopped")
                    .anyMatch(job -> job.finishedAt().isAfter(stopped));
            assertThat(commitsDuring).as("writer commits while the broker was down").isPositive();
            summaries.add("kafka down for " + outage.toSeconds() + " s (confirmed unreachable "
                    + confirmedDown.toSeconds() + " s); writer committed " + commitsDuring
                    + " times meanwhile; outcomes " + Scenario.outcomes(finished));
            await("a plan of every table from a commit after the broker returned, every service ready")
                    .atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(3)).untilAsserted(() -> {
                        List<MaintenancePlanned> plans = scenario.events().of(MaintenancePlanned.class);
                        for (TableId table : tables) {
                            assertThat(plans).as("plans of " + table + " made after the broker returned at " + back)
                                    .anyMatch(plan -> plan.table().equals(table) && plan.plannedAt().isAfter(back));
                        }
                        assertThat(stack.servicesNotReady()).as("services not ready after the broker returned").isEmpty();
                        assertThat(stack.servicesNotLive()).as("services not live (a failed channel) after the broker returned")
                                .isEmpty();
                    });
            summaries.add(scenario.end());
        }
    }

    /**
     * PostgreSQL (the services' database and the Iceberg catalog) is restarted as the governor
     * admits four tables' plans on two slots and the audit ingests their events: the governor
     * admits the rest once the database is back, and every job ends.
     */
    @Test
    @Order(3)
    void postgresRestartedWhileTheGovernorAdmitsAndTheAuditIngests() {
        try (Scenario scenario = new Scenario(stack, namespace, "pg_restart")) {
            scenario.tables(4, 8, 150, 60);
            scenario.awaitFullPlansQueued();
            scenario.resume();
            Instant stopped = Instant.now();
            stack.restartPostgres();
            Duration outage = Duration.between(stopped, Instant.now());

            List<JobFinished> finished = scenario.awaitJobsFinished(Duration.ofMinutes(4));
            List<JobAdmitted> admitted = scenario.events().of(JobAdmitted.class);
            assertThat(admitted).as("admissions after the restart").anyMatch(job -> job.admittedAt().isAfter(stopped));
            summaries.add("postgresql restarted in " + outage.toMillis() + " ms; outcomes "
                    + Scenario.outcomes(finished));
            summaries.add(scenario.end());
        }
    }

    /**
     * The governor is SIGKILLed after it committed an admission and before it published it. The
     * window is held open for real: the outbox relay takes a PostgreSQL advisory lock (the
     * governor's own "one relay at a time" lock, OutboxStore#takeTurn) before publishing, and the
     * test holds that lock, so the admission is in the database and its JobAdmitted in the
     * outbox, unpublished, when the kill lands. After the restart the same admission is published
     * once, under its own event id, and the plan has one job.
     */
    @Test
    @Order(4)
    void aGovernorKilledBetweenAdmissionAndPublicationAdmitsOnce() throws SQLException {
        try (Scenario scenario = new Scenario(stack, namespace, "governor_kill")) {
            TableId table = scenario.tables(1, 8, 150, 60).get(0);
            scenario.awaitFullPlansQueued();
            String admittedJobId;
            String admittedEventId;
            try (Connection relayLock = DriverManager.getConnection(Infrastructure.jdbcUrl(), Infrastructure.dbUser(),
                    Infrastructure.dbPassword())) {
                try (PreparedStatement lock = relayLock.prepareStatement(
                        "SELECT pg_advisory_lock(hashtextextended('governor' || '/outbox', 0))")) {
                    lock.execute();
                }
                scenario.resume();
                await("the admission committed to the outbox, unpublished").atMost(Duration.ofMinutes(2))
                        .pollInterval(Duration.ofMillis(500)).until(() -> StoredRows.unpublishedAdmissions(table) == 1);
                assertThat(scenario.events().of(JobAdmitted.class)).as("JobAdmitted on Kafka before the kill").isEmpty();
                admittedJobId = StoredRows.governorJobs(table).get(0);
                admittedEventId = StoredRows.outboxAdmission(table);
                stack.kill("governor");
            }
            stack.start("governor");

            JobFinished finished = scenario.awaitJobsFinished(Duration.ofMinutes(4)).get(0);
            assertThat(finished.jobId()).isEqualTo(admittedJobId);
            assertThat(finished.outcome()).as(finished.message() == null ? "succeeded" : finished.message())
                    .isEqualTo(JobOutcome.SUCCEEDED);
            List<JobAdmitted> admissions = scenario.events().of(JobAdmitted.class);
            assertThat(admissions).extracting(JobAdmitted::jobId).as("jobs admitted").containsOnly(admittedJobId);
            assertThat(scenario.events().envelopesOf(JobAdmitted.class)).extracting(envelope -> envelope.id())
                    .as("JobAdmitted event ids: the one the outbox held before the kill").contains(admittedEventId);
            assertThat(StoredRows.governorJobs(table)).as("the governor's jobs of " + table).containsExactly(admittedJobId);
            assertThat(scenario.jobCommits(table)).doesNotHaveDuplicates();
            summaries.add("governor killed with JobAdmitted " + admittedJobId + " in its outbox; "
                    + admissions.size() + " JobAdmitted record(s) after the restart");
            summaries.add(scenario.end());
        }
    }




    /**
     * One data file of one partition is overwritten with garbage before the job runs: that
     * partition's chunk fails with its reason, every other chunk is committed, and the job ends
     * partially succeeded. Once the file's bytes are put back, the table holds every row.
     */
    @Test
    @Order(5)
    void aCorruptedFileFailsItsChunkAndTheRestIsCommitted() throws IOException {
        try (Scenario scenario = new Scenario(stack, namespace, "corrupt_file")) {
            TableId table = scenario.tables(1, 8, 150, 60).get(0);
            scenario.awaitFullPlansQueued();
            Table loaded = scenario.writer().table(table);
            DataFile victim = Scenario.firstFile(loaded);
            Path path = Path.of(java.net.URI.create(victim.location()));
            byte[] original = Files.readAllBytes(path);
            byte[] garbage = new byte[original.length];
            new Random(5).nextBytes(garbage);
            Files.write(path, garbage);
            JobFinished finished;
            try {
                scenario.resume();
                finished = scenario.awaitJobsFinished(Duration.ofMinutes(4)).get(0);
            } finally {
                Files.write(path, original);
            }
            assertThat(finished.outcome()).isEqualTo(JobOutcome.PARTIALLY_SUCCEEDED);
            assertThat(finished.errorCode()).isNotBlank();
            List<OperationFinished> chunks = scenario.events().of(OperationFinished.class).stream()
                    .filter(operation -> operation.jobId().equals(finished.jobId())
                            && operation.operation() == Operation.OPTIMIZE)
                    .toList();
            assertThat(chunks).filteredOn(chunk -> chunk.status() == OperationStatus.FAILED).hasSize(1);
            assertThat(chunks).filteredOn(chunk -> chunk.status() == OperationStatus.SUCCEEDED)
                    .hasSize(Scenario.PARTITIONS - 1)
                    .allSatisfy(chunk -> assertThat(chunk.committedSnapshotId()).isNotNull());
            assertThat(Scenario.liveFiles(scenario.writer().table(table))).as("the corrupt file is still the table's")
                    .contains(victim.location());
            summaries.add("corrupt file: job " + finished.outcome().id() + ", " + finished.errorCode() + ": "
                    + finished.message());
            summaries.add(scenario.end());
            // Last, so the checks above are known to hold: an operator must learn from the job which file to repair.
            assertThat(finished.message()).as("the job's error names the corrupt file").contains(path.getFileName().toString());
            assertThat(chunks).filteredOn(chunk -> chunk.status() == OperationStatus.FAILED).singleElement()
                    .satisfies(chunk -> assertThat(chunk.message()).as("the failed chunk's error names the corrupt file")
                            .contains(path.getFileName().toString()));
        }
    }

    /**
     * The audit catches up on a backlog of records of 6 MiB on every event topic, as a buggy producer or
     * a hostile-input test leaves them: its consumers read them while it was down, and it must start
     * within its heap and store every one of them (a record the audit cannot read is not lost, it is
     * kept as published). Every other service reads the same records and stays up.
     */
    @Test
    @Order(6)
    void theAuditCatchesUpOnABacklogOfHugeRecordsOnEveryTopic() throws SQLException {
        String key = namespace + ".huge_records";
        List<String> topics = Topics.all().stream().map(Topics.Spec::name)
                .filter(topic -> !topic.startsWith("cryo.dlq.") && !topic.equals(Topics.REPLAY)
                        && !topic.equals(Topics.AUDIT_ANCHORS))
                .toList();
        stack.kill("audit");
        Instant started = Instant.now();
        try (KafkaTestClient kafka = new KafkaTestClient()) {
            for (String topic : topics) {
                for (int i = 0; i < HUGE_RECORDS_PER_TOPIC; i++) {
                    byte[] value = ("{\"" + "x".repeat(HostileRecords.OVERSIZED_BYTES) + "%02d".formatted(i))
                            .getBytes(StandardCharsets.UTF_8);
                    kafka.send(new ProducerRecord<>(topic, key, value));
                }
            }
        }
        stack.start("audit");
        int expected = topics.size() * HUGE_RECORDS_PER_TOPIC;
        await("the audit stores every huge record").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(2))
                .until(() -> StoredRows.auditedWithKey(key) == expected);
        for (String service : List.of("scanner", "scorer", "planner", "governor", "executor", "audit")) {
            assertThat(ProcessHandle.of(stack.pid(service)).map(ProcessHandle::isAlive)).as(service + " alive")
                    .contains(true);
        }
        summaries.add("huge records: " + expected + " records of 6 MiB on " + topics.size() + " topics audited "
                + Duration.between(started, Instant.now()).toSeconds() + " s after the audit was killed");
    }



}
