package dev.cryo.planner;

import dev.cryo.contracts.Check;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.Severity;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.Topics;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.FieldPredicate;
import dev.cryo.contracts.event.MaintenancePlanned;
import dev.cryo.contracts.event.PartitionPredicate;
import dev.cryo.contracts.event.TableGraded;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.contracts.Engine;
import dev.cryo.contracts.event.JobFinished;
import dev.cryo.contracts.event.JobOutcome;
import dev.cryo.contracts.event.JobScored;
import dev.cryo.contracts.event.JobStarted;
import dev.cryo.contracts.kafka.KafkaEnvelopes;
import dev.cryo.platform.messaging.EventIds;
import dev.cryo.testsupport.KafkaClientTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;

import static dev.cryo.planner.PlannerEvents.MIB;
import static dev.cryo.testsupport.HostileRecords.header;
import static dev.cryo.planner.PlannerEvents.envelope;
import static dev.cryo.planner.PlannerEvents.grade;
import static dev.cryo.planner.PlannerEvents.healthyScan;
import static dev.cryo.planner.PlannerEvents.randomTable;
import static dev.cryo.planner.PlannerEvents.scan;
import static dev.cryo.planner.PlannerEvents.small;
import static dev.cryo.planner.PlannerEvents.deduction;
import static dev.cryo.planner.PlannerEvents.partition;
import static dev.cryo.planner.PlannerEvents.tableOnTheSamePartitionAs;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasSize;

/**
 * The planner on the real broker and database: scans and grades in, plans out. Topics are shared
 * with other modules' tests, so every test uses its own random tables and reads only their events.
 *
 * <p>A scorer running beside these tests (its own tests, or a demo) grades the scans sent here
 * too, and publishes its own grades of these tables. The grades sent here are stamped an hour
 * ahead, so they are always the newest grade of their table: a scorer grade that arrives after
 * one of ours is skipped as older, one that arrives before is superseded by ours. Assertions
 * follow the plans derived from our grades' ids.
 */
@QuarkusTest
class PlannerFlowTest extends KafkaClientTest {

    // Generous: the planner first works through whatever other modules' tests left on the shared topics.
    private static final Duration WAIT = Duration.ofSeconds(180);

    @Test
    void aGradedTableGetsItsPlanOnThePlansTopic() {
        TableId table = randomTable("orders");
        Map<TopicPartition, Long> mark = kafka.mark(Topics.PLANS);
        EventEnvelope<TableScanned> scan = send(scan(table, "scan-" + UUID.randomUUID()));
        EventEnvelope<TableGraded> grade = send(grade(scan.data(), small(Severity.CRITICAL),
                deduction(Check.SNAPSHOT_COUNT, Severity.CRITICAL)));

        EventEnvelope<CryoEvent> planned = planOf(mark, grade);

        assertThat(planned.id()).isEqualTo(EventIds.derived(grade.id(), "maintenance-planned"));
        assertThat(planned.correlationId()).isEqualTo(grade.correlationId());
        assertThat(planned.source()).isEqualTo("/cryo/planner");
        MaintenancePlanned plan = (MaintenancePlanned) planned.data();
        assertThat(plan.planId()).isEqualTo(EventIds.derived(grade.id(), "plan"));
        assertThat(plan.scanId()).isEqualTo(scan.data().scanId());
        assertThat(plan.score()).isEqualTo(60);
        assertThat(plan.expectedScore()).isEqualTo(100);
        assertThat(plan.supersedesPlanId()).isNull();
        assertThat(plan.operationList()).containsExactly(Operation.OPTIMIZE, Operation.EXPIRE_SNAPSHOTS);
        // The hot day has 40 small files, the quiet one 2 (under the threshold of 5): only the hot day is rewritten.
        assertThat(plan.operations().get(0).chunks()).singleElement().satisfies(chunk -> {
            assertThat(chunk.partitions()).containsExactly(new PartitionPredicate(0, List.of(new FieldPredicate(
                    "event_day", "event_ts", "timestamptz", "day", "20786", "2026-11-29T00:00:00Z",
                    "2026-11-30T00:00:00Z", "2026-11-29"))));
            assertThat(chunk.estimate().inputFiles()).isEqualTo(40);
            assertThat(chunk.estimate().inputBytes()).isEqualTo(40 * 10 * MIB);
            assertThat(chunk.estimate().expectedOutputFiles()).isEqualTo(1);
        });
        assertThat(plan.operations().get(1).parameters().retainLast()).isEqualTo(10);

        given().get("/api/v1/tables/{table}/plan", table.toString()).then().statusCode(200)
                .body("planId", equalTo(plan.planId()))
                .body("status", equalTo("PLANNED"))
                .body("plan.operations[0].operation", equalTo("optimize"))
                .body("plan.operations[0].chunks[0].estimate.inputFiles", equalTo(40))
                .body("plan.operations[1].parameters.snapshotRetention", equalTo("PT168H"))
                .body("correlationId", equalTo(grade.correlationId()));
        given().get("/q/metrics").then().statusCode(200)
                .body(containsString("cryo_planner_grades_total{outcome=\"planned\"}"))
                .body(containsString("cryo_planner_plan_chunks_count"))
                .body(containsString("cryo_planner_plan_bytes_count"));
    }

    @Test
    void aGradeATableYieldsNothing() {
        // Both tables hash to the same partition of every topic, so the planner handles the A table
        // first and would have published its plan before the D table's: reading up to the D plan
        // proves that no A plan was published.
        TableId healthy = randomTable("healthy");
        TableId unhealthy = tableOnTheSamePartitionAs(healthy);
        Map<TopicPartition, Long> mark = kafka.mark(Topics.PLANS);

        EventEnvelope<TableScanned> healthyScan = send(healthyScan(healthy));
        send(grade(healthyScan.data()));
        EventEnvelope<TableScanned> unhealthyScan = send(scan(unhealthy, "scan-" + UUID.randomUUID()));
        EventEnvelope<TableGraded> unhealthyGrade = send(grade(unhealthyScan.data(), small(Severity.CRITICAL)));

        String unhealthyPlan = EventIds.derived(unhealthyGrade.id(), "maintenance-planned");
        List<ConsumerRecord<String, byte[]>> read = kafka.readAfter(mark, WAIT,
                records -> records.stream().anyMatch(record -> unhealthyPlan.equals(header(record, "ce_id"))));
        assertThat(read).noneMatch(record -> healthy.toString().equals(record.key()));

        given().get("/api/v1/tables/{table}/plan", healthy.toString()).then().statusCode(404)
                .body("code", equalTo("TABLE_NOT_KNOWN"))
                .body("message", equalTo("Cannot show the plan of " + healthy + ": it has none; its latest grade "
                        + "(A, score 100) has no deduction, and a healthy table gets no plan"));
        given().get("/api/v1/tables/{table}/plans", healthy.toString()).then().statusCode(200).body("plans", hasSize(0));
        given().contentType(ContentType.JSON).body(Map.of("table", healthy.toString())).post("/api/v1/plans/preview")
                .then().statusCode(200)
                .body("planned", equalTo(false))
                .body("notes[0]", equalTo("no deduction (grade A, score 100): a healthy table gets no plan"));
    }

    @Test
    void aGradeThatArrivesBeforeItsScanIsPlannedWhenTheScanArrivesAndKeepsItsActor() {
        TableId table = randomTable("early");
        Map<TopicPartition, Long> mark = kafka.mark(Topics.PLANS);
        TableScanned scan = scan(table, "scan-" + UUID.randomUUID());
        EventEnvelope<TableGraded> grade = send(envelope(grade(scan, small(Severity.CRITICAL))).withActor("operator:alice"));

        given().contentType(ContentType.JSON).body(Map.of("table", table.toString())).post("/api/v1/plans/preview")
                .then().statusCode(org.hamcrest.Matchers.anyOf(equalTo(404), equalTo(409)));
        send(scan);

        EventEnvelope<CryoEvent> planned = planOf(mark, grade);
        assertThat(planned.actor()).isEqualTo("operator:alice");
        assertThat(((MaintenancePlanned) planned.data()).actor()).isEqualTo("operator:alice");
        assertThat(planned.id()).isEqualTo(EventIds.derived(grade.id(), "maintenance-planned"));
    }

    @Test
    void aNewerPlanSupersedesTheUnstartedOlderOneAndTheHistoryShowsIt() {
        TableId table = randomTable("twice");
        Map<TopicPartition, Long> mark = kafka.mark(Topics.PLANS);
        TableScanned first = send(scan(table, "scan-1-" + UUID.randomUUID())).data();
        EventEnvelope<TableGraded> firstGrade = send(grade(first, small(Severity.CRITICAL)));
        // The next scan only after the first plan: a grade whose scan is already outdated is skipped.
        MaintenancePlanned older = (MaintenancePlanned) planOf(mark, firstGrade).data();
        TableScanned second = send(scan(table, "scan-2-" + UUID.randomUUID())).data();
        MaintenancePlanned newer = (MaintenancePlanned) planOf(mark, send(grade(second, small(Severity.CRITICAL)))).data();

        assertThat(older.scanId()).isEqualTo(first.scanId());
        assertThat(newer.scanId()).isEqualTo(second.scanId());
        assertThat(newer.supersedesPlanId()).isEqualTo(older.planId());
        given().get("/api/v1/tables/{table}/plans", table.toString()).then().statusCode(200)
                .body("plans[0].planId", equalTo(newer.planId()))
                .body("plans[0].status", equalTo("PLANNED"))
                .body("plans[0].supersedesPlanId", equalTo(older.planId()))
                .body("plans[1].planId", equalTo(older.planId()))
                .body("plans[1].status", equalTo("SUPERSEDED"))
                .body("plans[1].supersededByPlanId", equalTo(newer.planId()));
        // by id, as the governor's queue and the executors' jobs name it; the chain it came from
        given().get("/api/v1/plans/{plan}", older.planId()).then().statusCode(200)
                .body("planId", equalTo(older.planId()))
                .body("status", equalTo("SUPERSEDED"))
                .body("supersededByPlanId", equalTo(newer.planId()))
                .body("correlationId", equalTo(firstGrade.correlationId()))
                .body("plan.scanId", equalTo(first.scanId()));
        given().get("/api/v1/tables/{table}/plans", table.toString()).then()
                .body("plans[1].correlationId", equalTo(firstGrade.correlationId()));
        given().get("/api/v1/plans/{plan}", "no-such-plan").then().statusCode(404)
                .body("code", equalTo("PLAN_NOT_KNOWN"))
                .body("message", equalTo("Cannot show plan no-such-plan: the planner has no plan with that id"));
        given().get("/api/v1/plans/{plan}", "p".repeat(300)).then().statusCode(400);
    }

    @Test
    void executorReportsShowInTheHistoryAndAFinishedPlanIsNotSuperseded() {
        TableId table = randomTable("reported");
        Map<TopicPartition, Long> mark = kafka.mark(Topics.PLANS);
        TableScanned first = send(scan(table, "scan-1-" + UUID.randomUUID())).data();
        MaintenancePlanned done = (MaintenancePlanned) planOf(mark, send(grade(first, small(Severity.CRITICAL)))).data();

        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        String jobId = "job-" + UUID.randomUUID();
        send(new JobStarted(jobId, done.planId(), table, Engine.NATIVE, "executor-test", 1, now, 0));
        await().atMost(WAIT).untilAsserted(() -> given().get("/api/v1/tables/{table}/plan", table.toString()).then()
                .statusCode(200).body("status", equalTo("STARTED")));
        send(new JobFinished(jobId, done.planId(), table, Engine.NATIVE, JobOutcome.SUCCEEDED, 1, 0,
                Duration.ofSeconds(3), null, null, now.plusSeconds(3)));
        await().atMost(WAIT).untilAsserted(() -> given().get("/api/v1/tables/{table}/plan", table.toString()).then()
                .statusCode(200).body("status", equalTo("FINISHED")));
        // The job's operation reports did not come here: only a grade of a scan after its end scores it.
        given().get("/api/v1/jobs/{jobId}/score", jobId).then().statusCode(404)
                .body("message", containsString("waits for the grade of a scan after its last change"));

        Map<TopicPartition, Long> results = kafka.mark(Topics.JOBS_RESULTS);
        TableScanned second = send(scan(table, "scan-2-" + UUID.randomUUID(), now.plusSeconds(5))).data();
        EventEnvelope<TableGraded> graded = send(grade(second, small(Severity.CRITICAL)));
        TableGraded after = graded.data();
        MaintenancePlanned next = (MaintenancePlanned) planOf(mark, graded).data();

        String scoreId = EventIds.derived(jobId, "scored");
        Predicate<ConsumerRecord<String, byte[]>> scored = record -> scoreId.equals(header(record, "ce_id"));
        JobScored score = (JobScored) kafka.readAfter(results, WAIT, records -> records.stream().anyMatch(scored)).stream()
                .filter(scored).map(KafkaEnvelopes::fromRecord).findFirst().orElseThrow().data();
        assertThat(score.jobId()).isEqualTo(jobId);
        assertThat(score.scanId()).isEqualTo(second.scanId());
        assertThat(score.actualScore()).isEqualTo(after.score());
        assertThat(score.expectedScore()).isEqualTo(done.expectedScore());
        assertThat(score.reached()).isEqualTo(after.score() >= done.expectedScore());
        given().get("/api/v1/jobs/{jobId}/score", jobId).then().statusCode(200).body("scanId", equalTo(second.scanId()));
        given().get("/api/v1/job-scores?table={table}", table.toString()).then().statusCode(200)
                .body("jobs", equalTo(1)).body("scores[0].jobId", equalTo(jobId));

        assertThat(next.supersedesPlanId()).isNull();
        given().get("/api/v1/tables/{table}/plans", table.toString()).then().statusCode(200)
                .body("plans[0].planId", equalTo(next.planId()))
                .body("plans[1].planId", equalTo(done.planId()))
                .body("plans[1].status", equalTo("FINISHED"));
    }

    @Test
    void aRedeliveredGradeRepublishesTheSamePlanAndStoresItOnce() {
        TableId table = randomTable("again");
        Map<TopicPartition, Long> mark = kafka.mark(Topics.PLANS);
        TableScanned scan = send(scan(table, "scan-" + UUID.randomUUID())).data();
        EventEnvelope<TableGraded> grade = send(grade(scan, small(Severity.CRITICAL)));
        send(grade);

        String planEventId = EventIds.derived(grade.id(), "maintenance-planned");
        Predicate<ConsumerRecord<String, byte[]>> ours = record -> planEventId.equals(header(record, "ce_id"));
        List<ConsumerRecord<String, byte[]>> published = kafka.readAfter(mark, WAIT,
                records -> records.stream().filter(ours).count() >= 2).stream().filter(ours).toList();
        assertThat(published).hasSize(2);
        assertThat(published.get(0).value()).isEqualTo(published.get(1).value());
        assertThat(planIds(table)).containsOnlyOnce(EventIds.derived(grade.id(), "plan"));
    }

    @Test
    void thePreviewPlansNowWithoutPublishing() {
        TableId table = randomTable("preview");
        Map<TopicPartition, Long> mark = kafka.mark(Topics.PLANS);
        TableScanned scan = send(scan(table, "scan-" + UUID.randomUUID())).data();
        planOf(mark, send(grade(scan, small(Severity.CRITICAL))));
        List<String> before = planIds(table);

        given().contentType(ContentType.JSON).body(Map.of("table", table.toString())).post("/api/v1/plans/preview")
                .then().statusCode(200)
                .body("planned", equalTo(true))
                .body("scanId", equalTo(scan.scanId()))
                .body("operations[0].operation", equalTo("optimize"))
                .body("operations[0].chunks[0].partitions[0].fields[0].humanValue", equalTo("2026-11-29"))
                .body("estimate.inputFiles", equalTo(40))
                .body("supersedesPlanId", equalTo(before.get(0)));
        assertThat(planIds(table)).isEqualTo(before);

        given().contentType(ContentType.JSON).body(Map.of("table", randomTable("unknown").toString()))
                .post("/api/v1/plans/preview").then().statusCode(404).body("code", equalTo("TABLE_NOT_KNOWN"));
        given().contentType(ContentType.JSON).body(Map.of("table", "no-dots")).post("/api/v1/plans/preview")
                .then().statusCode(400)
                .body("message", containsString("Cannot parse table id 'no-dots': expected catalog.namespace.table"));
    }

    @Test
    void onlyTheNewerScansGradeIsPlannedWhenTheOlderScanNeverArrives() {
        TableId table = randomTable("outdated");
        Map<TopicPartition, Long> mark = kafka.mark(Topics.PLANS);
        TableGraded outdated = grade(scan(table, "scan-old-" + UUID.randomUUID()), small(Severity.CRITICAL));
        TableScanned newer = send(scan(table, "scan-new-" + UUID.randomUUID())).data();
        // The older scan never arrives; whichever order the two topics deliver in, only the newer scan's grade
        // is planned (PlanningServiceTest pins each order down).
        send(outdated);
        EventEnvelope<TableGraded> newerGrade = send(grade(newer, small(Severity.CRITICAL)));

        planOf(mark, newerGrade);

        given().get("/api/v1/tables/{table}/plans", table.toString()).then().statusCode(200)
                .body("plans.scanId", everyItem(equalTo(newer.scanId())));
    }

    @Test
    void aScanWhosePartitionsCannotBeAddressedIsDeadLetteredWithTheReason() {
        TableId table = randomTable("broken");
        Map<TopicPartition, Long> mark = kafka.mark(Topics.deadLetter("planner"));
        TableScanned good = scan(table, "scan-" + UUID.randomUUID());
        // The partition claims spec 7, which the scan does not list.
        TableScanned broken = new TableScanned(table, good.scanId(), good.scannedAt(), good.scanDuration(), 2,
                good.snapshotId(), null, null, good.location(), good.fileSizes(), good.totals(), good.specs(),
                List.of(partition(7, "20786", 40)), null, null, null, null, null, null);
        EventEnvelope<TableScanned> sentScan = send(broken);
        EventEnvelope<TableGraded> grade = send(grade(broken, small(Severity.CRITICAL)));

        // Scan and grade arrive on two topics in either order: the one that completes the pair is planned, fails and
        // is dead-lettered (the grade when the scan came first, the scan when the grade waited for it).
        Predicate<ConsumerRecord<String, byte[]>> ours = record -> table.toString().equals(record.key())
                && record.headers().lastHeader("dead-letter-reason") != null;
        List<ConsumerRecord<String, byte[]>> dead = kafka.readAfter(mark, WAIT, records -> records.stream().anyMatch(ours));
        ConsumerRecord<String, byte[]> record = dead.stream().filter(ours).findFirst().orElseThrow();
        assertThat(header(record, "ce_id")).isIn(grade.id(), sentScan.id());
        assertThat(header(record, "dead-letter-reason")).isEqualTo("Cannot plan " + table + " from scan "
                + broken.scanId() + ": partition [20786] uses spec 7, which the scan does not list");
    }

    /** The plan made from our grade, read from the plans topic after the mark. */
    private EventEnvelope<CryoEvent> planOf(Map<TopicPartition, Long> mark, EventEnvelope<TableGraded> grade) {
        String eventId = EventIds.derived(grade.id(), "maintenance-planned");
        Predicate<ConsumerRecord<String, byte[]>> ours = record -> eventId.equals(header(record, "ce_id"));
        return kafka.readAfter(mark, WAIT, records -> records.stream().anyMatch(ours)).stream()
                .filter(ours).map(KafkaEnvelopes::fromRecord).findFirst().orElseThrow();
    }

    private static List<String> planIds(TableId table) {
        return given().get("/api/v1/tables/{table}/plans", table.toString()).then().statusCode(200)
                .extract().jsonPath().getList("plans.planId", String.class);
    }

    private <T extends CryoEvent> EventEnvelope<T> send(T event) {
        return send(envelope(event));
    }

    private <T extends CryoEvent> EventEnvelope<T> send(EventEnvelope<T> envelope) {
        kafka.send(KafkaEnvelopes.toRecord(envelope));
        return envelope;
    }
}
