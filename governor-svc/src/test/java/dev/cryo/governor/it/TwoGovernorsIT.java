package dev.cryo.governor.it;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryo.contracts.Engine;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.Topics;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.DeferReason;
import dev.cryo.contracts.event.JobAdmitted;
import dev.cryo.contracts.event.JobDeferred;
import dev.cryo.contracts.event.MaintenancePlanned;
import dev.cryo.contracts.json.EventJson;
import dev.cryo.contracts.json.MalformedEventException;
import dev.cryo.contracts.kafka.KafkaEnvelopes;
import dev.cryo.governor.app.Events;
import dev.cryo.testsupport.Infrastructure;
import dev.cryo.testsupport.KafkaTestClient;
import dev.cryo.testsupport.NeedsInfrastructure;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two governors from the packaged application, on the same Kafka and PostgreSQL, share 200
 * plans for 50 tables while this test plays the executor (it starts each admitted job and
 * finishes it after a short hold). From the events alone: no table ever has two jobs admitted
 * at once, and every plan ends admitted or dropped with a reason.
 */
@NeedsInfrastructure
class TwoGovernorsIT {

    private static final int TABLES = 50;
    private static final int PLANS_PER_TABLE = 4;
    private static final Duration HOLD = Duration.ofMillis(150);
    private static final String SCHEMA = "governor_it";
    private static final Duration STARTUP = Duration.ofSeconds(180);
    private static final String OPERATOR_TOKEN = UUID.randomUUID().toString();

    /** What the executor saw: jobs admitted while their table's previous job was still running. */
    private final List<String> violations = new CopyOnWriteArrayList<>();
    private final Map<String, String> openJobByTable = new ConcurrentHashMap<>();
    private final Map<String, List<JobAdmitted>> admittedByPlan = new ConcurrentHashMap<>();
    private final Map<String, List<JobDeferred>> deferredByPlan = new ConcurrentHashMap<>();
    private final Map<String, Integer> admissionsByGovernor = new ConcurrentHashMap<>();

    @Test
    void twoGovernorsNeverAdmitOneTableTwiceAndEveryPlanEndsWithAReason() throws Exception {
        Path application = Path.of(System.getProperty("governor.application",
                "target/quarkus-app/quarkus-run.jar")).toAbsolutePath();
        assertThat(application).as("the packaged governor (mvn package builds it)").exists();
        dropSchema();
        String group = "cryo-governor-it-" + UUID.randomUUID().toString().substring(0, 8);
        // A new group per run starts at the end of the shared topics: this run's plans, all of them.
        KafkaTestClient.startGroupAtEnd(group, Topics.PLANS, Topics.JOBS_RESULTS);
        Map<String, String> properties = Map.ofEntries(
                Map.entry("cryo.service.schema", SCHEMA),
                Map.entry("mp.messaging.connector.smallrye-kafka.group.id", group),
                Map.entry("cryo.governor.cooldown", "PT0S"),
                Map.entry("cryo.governor.slots.native", "8"),
                Map.entry("cryo.governor.lease", "PT60S"),
                Map.entry("cryo.governor.recheck-interval", "PT2S"),
                Map.entry("cryo.governor.reevaluation-interval", "PT1S"),
                Map.entry("cryo.security.tokens", "it=operator:" + OPERATOR_TOKEN));

        String namespace = "governor_it_" + UUID.randomUUID().toString().substring(0, 8);
        Set<String> tables = new HashSet<>();
        List<MaintenancePlanned> plans = plans(namespace, tables);
        ScheduledExecutorService executor = Executors.newScheduledThreadPool(2);
        List<Thread> readers = new ArrayList<>();
        Instant started = Instant.now();
        try (GovernorProcess first = GovernorProcess.start(application, "governor-it-1", properties);
             GovernorProcess second = GovernorProcess.start(application, "governor-it-2", properties);
             KafkaTestClient kafka = new KafkaTestClient()) {
            // About 5 s on an idle machine; far more while other builds share the two cores.
            first.awaitReady(STARTUP);
            second.awaitReady(STARTUP);
            keepOtherPlansOffTheSlots(first, namespace);
            awaitAssignment(group);
            Instant ready = Instant.now();
            Map<TopicPartition, Long> mark = kafka.mark(Topics.JOBS_ADMITTED, Topics.JOBS_DEFERRED);
            readers.add(reader(mark, tables, record -> onEvent(record, kafka, executor)));

            plans.forEach(plan -> kafka.send(KafkaEnvelopes.toRecord(Events.planned(plan))));

            await().atMost(Duration.ofSeconds(300)).pollInterval(Duration.ofMillis(500))
                    .untilAsserted(() -> assertThat(plans).filteredOn(plan -> !ended(plan))
                            .extracting(plan -> plan.table() + " plan " + plan.planId()).as("plans not ended yet")
                            .isEmpty());
            Instant done = Instant.now();
            await().atMost(Duration.ofSeconds(60)).until(() -> openJobByTable.isEmpty());
            for (GovernorProcess governor : List.of(first, second)) {
                await().atMost(Duration.ofSeconds(60)).until(() -> nothingQueuedFor(governor, tables));
            }

            assertThat(violations).as("jobs admitted while their table's job still ran").isEmpty();
            for (MaintenancePlanned plan : plans) {
                List<JobAdmitted> admitted = admittedByPlan.getOrDefault(plan.planId(), List.of());
                assertThat(admitted.stream().map(JobAdmitted::jobId).distinct()).as("jobs of plan " + plan.planId())
                        .hasSizeLessThanOrEqualTo(1);
                if (admitted.isEmpty()) {
                    assertThat(deferredByPlan.get(plan.planId())).as("events of unadmitted plan " + plan.planId())
                            .anyMatch(deferred -> deferred.reason() == DeferReason.SUPERSEDED);
                }
            }
            assertThat(deferredByPlan.values().stream().flatMap(List::stream))
                    .allMatch(deferred -> !deferred.message().isBlank());
            assertThat(admissionsByGovernor).as("both governors admitted work").hasSize(2);
            System.out.printf("TwoGovernorsIT: governors ready after %d ms; %d plans for %d tables ended after %d ms: "
                            + "%d admitted %s, deferrals by reason %s%n",
                    Duration.between(started, ready).toMillis(), plans.size(), TABLES,
                    Duration.between(ready, done).toMillis(),
                    admittedByPlan.size(), admissionsByGovernor, deferralsByReason());
        } finally {
            readers.forEach(Thread::interrupt);
            executor.shutdownNow();
        }
    }

    /** 4 plans per table, sent interleaved; every fifth table's last plan replaces its third. */
    private static List<MaintenancePlanned> plans(String namespace, Set<String> tables) {
        Random random = new Random(42);
        List<TableId> ids = new ArrayList<>();
        for (int i = 0; i < TABLES; i++) {
            TableId table = TableId.of("lake", namespace, "t" + i);
            ids.add(table);
            tables.add(table.toString());
        }
        List<MaintenancePlanned> plans = new ArrayList<>();
        Map<TableId, MaintenancePlanned> previous = new HashMap<>();
        for (int round = 0; round < PLANS_PER_TABLE; round++) {
            for (int i = 0; i < TABLES; i++) {
                TableId table = ids.get(i);
                String supersedes = round == PLANS_PER_TABLE - 1 && i % 5 == 0 ? previous.get(table).planId() : null;
                MaintenancePlanned plan = Events.plan(table, random.nextInt(100), supersedes);
                previous.put(table, plan);
                plans.add(plan);
            }
        }
        return plans;
    }

    /** Plays the executor for the test's tables and records what the governors decided. */
    private void onEvent(EventEnvelope<CryoEvent> envelope, KafkaTestClient kafka, ScheduledExecutorService executor) {
        if (envelope.data() instanceof JobDeferred deferred) {
            deferredByPlan.computeIfAbsent(deferred.planId(), id -> new CopyOnWriteArrayList<>()).add(deferred);
            return;
        }
        if (!(envelope.data() instanceof JobAdmitted job)) {
            return;
        }
        admittedByPlan.computeIfAbsent(job.planId(), id -> new CopyOnWriteArrayList<>()).add(job);
        admissionsByGovernor.merge(job.governorId(), 1, Integer::sum);
        String table = job.table().toString();
        String running = openJobByTable.putIfAbsent(table, job.jobId());
        if (running != null && !running.equals(job.jobId())) {
            violations.add("job " + job.jobId() + " admitted on " + table + " while job " + running + " ran");
            return;
        }
        kafka.send(KafkaEnvelopes.toRecord(Events.started(job.jobId(), job.planId(), job.table(), Engine.NATIVE)));
        executor.schedule(() -> {
            // The table is free from the moment the executor reports the finish.
            openJobByTable.remove(table, job.jobId());
            kafka.send(KafkaEnvelopes.toRecord(Events.finished(job.jobId(), job.planId(), job.table(), Engine.NATIVE)));
        }, HOLD.toMillis(), TimeUnit.MILLISECONDS);
    }

    private boolean ended(MaintenancePlanned plan) {
        return admittedByPlan.containsKey(plan.planId()) || deferredByPlan.getOrDefault(plan.planId(), List.of())
                .stream().anyMatch(deferred -> deferred.reason() == DeferReason.SUPERSEDED);
    }

    private Map<String, Long> deferralsByReason() {
        return deferredByPlan.values().stream().flatMap(List::stream)
                .collect(Collectors.groupingBy(deferred -> deferred.reason().id(), Collectors.counting()));
    }

    private static Thread reader(Map<TopicPartition, Long> mark, Set<String> tables,
                                 java.util.function.Consumer<EventEnvelope<CryoEvent>> handler) {
        Thread thread = new Thread(() -> {
            try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Infrastructure.kafkaAdminClient(Map.of(
                    ConsumerConfig.GROUP_ID_CONFIG, "governor-it-reader-" + UUID.randomUUID(),
                    ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false)), new StringDeserializer(), new ByteArrayDeserializer())) {
                consumer.assign(mark.keySet());
                mark.forEach(consumer::seek);
                while (!Thread.currentThread().isInterrupted()) {
                    for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                        if (record.key() != null && tables.contains(record.key())) {
                            try {
                                handler.accept(KafkaEnvelopes.fromRecord(record));
                            } catch (MalformedEventException e) {
                                throw new IllegalStateException("the governor published a malformed event", e);
                            }
                        }
                    }
                }
            } catch (org.apache.kafka.common.errors.InterruptException e) {
                Thread.currentThread().interrupt();
            }
        }, "governor-it-executor");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** Waits until the governors' consumer group owns every partition of the plans and results topics. */
    private static void awaitAssignment(String group) {
        try (Admin admin = Admin.create(Infrastructure.kafkaAdminClient())) {
            int wanted = Topics.all().stream().filter(spec -> spec.name().equals(Topics.PLANS)
                    || spec.name().equals(Topics.JOBS_RESULTS)).mapToInt(Topics.Spec::partitions).sum();
            await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500)).until(() -> {
                ConsumerGroupDescription description = admin.describeConsumerGroups(List.of(group)).all()
                        .get(10, TimeUnit.SECONDS).get(group);
                Set<TopicPartition> assigned = new HashSet<>();
                for (MemberDescription member : description.members()) {
                    assigned.addAll(member.assignment().topicPartitions());
                }
                return assigned.size() == wanted;
            });
        }
    }

    /**
     * Other modules' tests publish plans on the same topic while this test runs, and the governors
     * admit them too; their jobs never finish (no executor here) and would hold native slots. As
     * an operator would: every table goes to Spark, which gets no slots, except this test's namespace.
     */
    private static void keepOtherPlansOffTheSlots(GovernorProcess governor, String namespace) throws Exception {
        put(governor, "/api/v1/engines/spark", "{\"slots\": 0}");
        put(governor, "/api/v1/policies/**", "{\"engine\": \"spark\"}");
        put(governor, "/api/v1/policies/lake." + namespace + ".*", "{\"engine\": \"native\"}");
    }

    private static void put(GovernorProcess governor, String path, String json) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(governor.baseUrl() + path))
                .header("Authorization", "Bearer " + OPERATOR_TOKEN)
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("PUT " + path + ": " + response.body()).isEqualTo(200);
    }

    /** The governor's queue API shows none of the test's tables as admitted, running or waiting. */
    private static boolean nothingQueuedFor(GovernorProcess governor, Set<String> tables) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(governor.baseUrl() + "/api/v1/queue")).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            return false;
        }
        JsonNode queue = EventJson.mapper().readTree(response.body());
        for (String section : List.of("admitted", "running", "deferred")) {
            for (JsonNode entry : queue.get(section)) {
                if (tables.contains(entry.get("table").asText())) {
                    return false;
                }
            }
        }
        return true;
    }

    private static void dropSchema() throws Exception {
        try (Connection connection = DriverManager.getConnection(Infrastructure.jdbcUrl(), Infrastructure.dbUser(),
                Infrastructure.dbPassword());
             Statement statement = connection.createStatement()) {
            statement.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
        }
    }
}
