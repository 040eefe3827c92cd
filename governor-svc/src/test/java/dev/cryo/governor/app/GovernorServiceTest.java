package dev.cryo.governor.app;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.DeferReason;
import dev.cryo.contracts.event.JobAdmitted;
import dev.cryo.contracts.event.JobDeferred;
import dev.cryo.contracts.event.JobHeartbeat;
import dev.cryo.contracts.event.MaintenancePlanned;
import dev.cryo.platform.messaging.EventIds;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static dev.cryo.testsupport.OperatorOnly.OPERATOR;
import static dev.cryo.testsupport.OperatorOnly.VIEWER;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

/**
 * The governor on the real broker and database: plans in, admissions and deferrals out, with
 * the operator's API in between. Every test uses tables of its own.
 */
@QuarkusTest
class GovernorServiceTest extends BrokerTest {

    @Test
    void aPlanForAFreeTableIsAdmittedWithItsWholePlanAndChain() {
        TableId table = Events.uniqueTable("free");
        MaintenancePlanned plan = Events.plan(table, 35, null);
        EventEnvelope<MaintenancePlanned> sent = Events.fixNow(plan, "operator:test");
        Map<TopicPartition, Long> mark = broker.mark();

        broker.send(sent);

        EventEnvelope<CryoEvent> admitted = broker.admitted(mark, job -> job.planId().equals(plan.planId()));
        JobAdmitted job = (JobAdmitted) admitted.data();
        assertThat(admitted.id()).isEqualTo(EventIds.derived(sent.id(), "admitted"));
        assertThat(admitted.correlationId()).isEqualTo(sent.correlationId());
        assertThat(admitted.actor()).isEqualTo("operator:test");
        assertThat(admitted.source()).isEqualTo("/cryo/governor");
        assertThat(job.jobId()).isEqualTo(EventIds.derived(plan.planId(), "job"));
        assertThat(job.plan()).isEqualTo(plan);
        assertThat(job.engine()).isEqualTo(Engine.NATIVE);
        assertThat(job.governorId()).startsWith("governor-");
        assertThat(job.leaseExpiresAt()).isEqualTo(job.admittedAt().plus(Duration.ofSeconds(10)));
        given().get("/api/v1/locks").then().statusCode(200)
                .body("find { it.table == '" + table + "' }.jobId", equalTo(job.jobId()));
    }

    @Test
    void aSecondPlanForALockedTableWaitsAndIsAdmittedWhenTheFirstJobFinishes() {
        TableId table = Events.uniqueTable("locked");
        noCooldown(table);
        MaintenancePlanned first = Events.plan(table, 50, null);
        MaintenancePlanned second = Events.plan(table, 50, null);
        Map<TopicPartition, Long> mark = broker.mark();
        broker.send(Events.planned(first));
        JobAdmitted firstJob = (JobAdmitted) broker.admitted(mark, job -> job.planId().equals(first.planId())).data();
        broker.send(Events.started(firstJob.jobId(), first.planId(), table, Engine.NATIVE));

        broker.send(Events.planned(second));

        JobDeferred deferred = (JobDeferred) broker.deferred(mark, defer -> defer.planId().equals(second.planId())).data();
        assertThat(deferred.reason()).isEqualTo(DeferReason.LOCKED);
        assertThat(deferred.message()).startsWith("job " + firstJob.jobId() + " (plan " + first.planId() + ") holds "
                + table + " until it finishes or its lease ends at ");
        assertThat(deferred.retryAfter()).isAfter(deferred.deferredAt());
        given().get("/api/v1/queue").then().statusCode(200)
                .body("deferred.find { it.planId == '" + second.planId() + "' }.reason", equalTo("locked"));

        broker.send(Events.finished(firstJob.jobId(), first.planId(), table, Engine.NATIVE));

        JobAdmitted secondJob = (JobAdmitted) broker.admitted(mark, job -> job.planId().equals(second.planId())).data();
        assertThat(secondJob.jobId()).isNotEqualTo(firstJob.jobId());
    }

    /**
     * A plan made from a scan taken while a job ran describes the table before the job's last
     * commit: when the job finishes it is dropped, not admitted for a second job. A plan made
     * from a scan that saw the last commit is admitted; a stale one arriving late is dropped too,
     * even an operator's fix now (run after the job, it would find the work done and change nothing).
     */
    @Test
    void aPlanFromAScanOlderThanTheJobsLastCommitIsDroppedAndANewerOneRuns() {
        TableId table = Events.uniqueTable("stale");
        noCooldown(table);
        Instant start = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        MaintenancePlanned first = Events.planFromScan(table, 40, 100L, start.minusSeconds(30), null);
        Map<TopicPartition, Long> mark = broker.mark();
        broker.send(Events.planned(first));
        JobAdmitted job = (JobAdmitted) broker.admitted(mark, admitted -> admitted.planId().equals(first.planId())).data();
        broker.send(Events.started(job.jobId(), first.planId(), table, Engine.NATIVE));
        // A writer's commit during the job is scanned and planned; the plan waits for the job's lock.
        MaintenancePlanned duringJob = Events.planFromScan(table, 40, 101L, start.minusSeconds(20), null);
        broker.send(Events.planned(duringJob));
        broker.deferred(mark, defer -> defer.planId().equals(duringJob.planId()) && defer.reason() == DeferReason.LOCKED);
        Instant committedAt = start.minusSeconds(10);
        broker.send(Events.committed(job.jobId(), first.planId(), table, 102L, committedAt));

        broker.send(Events.finished(job.jobId(), first.planId(), table, Engine.NATIVE));

        JobDeferred dropped = (JobDeferred) broker.deferred(mark, defer -> defer.planId().equals(duringJob.planId())
                && defer.reason() == DeferReason.SUPERSEDED).data();
        assertThat(dropped.message()).isEqualTo("plan " + duringJob.planId() + " of " + table
                + " was made from a scan that began at " + start.minusSeconds(20) + ", before job " + job.jobId()
                + " committed snapshot 102 at " + committedAt + "; the scan after that commit plans what is still needed");
        // What ./cryo fix reads to tell that its plan will never run, and why.
        given().get("/api/v1/plans/" + duringJob.planId()).then().statusCode(200)
                .body("stage", equalTo("superseded")).body("reason", equalTo("superseded"))
                .body("message", equalTo(dropped.message()));
        given().get("/api/v1/plans/no-such-plan").then().statusCode(404).body("code", equalTo("PLAN_NOT_FOUND"));
        MaintenancePlanned late = Events.planFromScan(table, 40, 101L, start.minusSeconds(15), null);
        broker.send(Events.fixNow(late, "operator:alice"));
        assertThat(((JobDeferred) broker.deferred(mark, defer -> defer.planId().equals(late.planId())).data()).reason())
                .isEqualTo(DeferReason.SUPERSEDED);
        MaintenancePlanned afterJob = Events.planFromScan(table, 40, 102L, start.minusSeconds(5), null);
        broker.send(Events.planned(afterJob));
        JobAdmitted second = (JobAdmitted) broker.admitted(mark, admitted -> admitted.planId().equals(afterJob.planId())).data();
        broker.send(Events.finished(second.jobId(), afterJob.planId(), table, Engine.NATIVE));
    }

    @Test
    void aPausedTableIsDeferredUntilAnOperatorResumesIt() {
        TableId table = Events.uniqueTable("paused");
        String body = "{\"pattern\": \"" + table.catalog() + "." + table.namespaceName() + "." + table.table()
                + "\", \"reason\": \"quarter close\"}";
        given().contentType(ContentType.JSON).body(body).post("/api/v1/pauses").then().statusCode(401);
        given().header("Authorization", VIEWER).contentType(ContentType.JSON).body(body).post("/api/v1/pauses")
                .then().statusCode(403);
        String pauseId = given().header("Authorization", OPERATOR).contentType(ContentType.JSON).body(body)
                .post("/api/v1/pauses").then().statusCode(201)
                .body("pausedBy", equalTo("operator:test-operator"))
                .extract().path("id");
        MaintenancePlanned plan = Events.plan(table, 20, null);
        Map<TopicPartition, Long> mark = broker.mark();

        broker.send(Events.planned(plan));

        JobDeferred deferred = (JobDeferred) broker.deferred(mark, defer -> defer.planId().equals(plan.planId())).data();
        assertThat(deferred.reason()).isEqualTo(DeferReason.PAUSED);
        assertThat(deferred.message())
                .startsWith("table " + table + " is paused by pattern '" + table + "' (operator:test-operator at ")
                .endsWith(": quarter close); lift pause " + pauseId + " to let it run");
        assertThat(deferred.retryAfter()).isNull();
        given().get("/api/v1/tables/" + table).then().statusCode(200)
                .body("pausedBy.id", equalTo(pauseId))
                .body("queued[0].reason", equalTo("paused"));
        given().header("Authorization", VIEWER).delete("/api/v1/pauses/" + pauseId).then().statusCode(403);

        given().header("Authorization", OPERATOR).delete("/api/v1/pauses/" + pauseId).then().statusCode(204);

        broker.admitted(mark, job -> job.planId().equals(plan.planId()));
        given().header("Authorization", OPERATOR).delete("/api/v1/pauses/" + pauseId).then().statusCode(404)
                .body("message", equalTo("Cannot lift pause " + pauseId
                        + ": there is no such pause; GET /api/v1/pauses lists them"));
    }

    @Test
    void aJobWhoseLeaseRunsOutIsAdmittedAgainUnderTheSameId() {
        TableId table = Events.uniqueTable("lease");
        MaintenancePlanned plan = Events.plan(table, 30, null);
        Map<TopicPartition, Long> mark = broker.mark();
        broker.send(Events.planned(plan));
        EventEnvelope<CryoEvent> first = broker.admitted(mark, job -> job.planId().equals(plan.planId()));
        JobAdmitted job = (JobAdmitted) first.data();
        broker.send(Events.started(job.jobId(), plan.planId(), table, Engine.NATIVE));

        // No heartbeat follows: the 10 s lease of the test profile runs out.
        EventEnvelope<CryoEvent> again = broker.admitted(mark, readmitted -> readmitted.jobId().equals(job.jobId())
                && readmitted.admittedAt().isAfter(job.admittedAt()));

        assertThat(again.id()).isEqualTo(EventIds.derived(job.jobId(), "admitted/attempt-2"));
        assertThat(((JobAdmitted) again.data()).slot()).isEqualTo(job.slot());
        assertThat(((JobAdmitted) again.data()).plan()).isEqualTo(plan);
        given().get("/api/v1/queue").then().statusCode(200)
                .body("admitted.find { it.jobId == '" + job.jobId() + "' }.attempt", equalTo(2))
                .body("admitted.find { it.jobId == '" + job.jobId() + "' }.note",
                        org.hamcrest.Matchers.startsWith("re-admitted as attempt 2 after its lease ended at "));
        broker.send(Events.finished(job.jobId(), plan.planId(), table, Engine.NATIVE));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().get("/api/v1/tables/" + table).then()
                .body("lock", org.hamcrest.Matchers.nullValue()));
    }

    @Test
    void heartbeatsRenewTheLeaseFromTheirSendingTime() {
        TableId table = Events.uniqueTable("heartbeat");
        MaintenancePlanned plan = Events.plan(table, 30, null);
        Map<TopicPartition, Long> mark = broker.mark();
        broker.send(Events.planned(plan));
        JobAdmitted job = (JobAdmitted) broker.admitted(mark, admitted -> admitted.planId().equals(plan.planId())).data();
        broker.send(Events.started(job.jobId(), plan.planId(), table, Engine.NATIVE));
        Set<Instant> renewedUntil = ConcurrentHashMap.newKeySet();

        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            EventEnvelope<JobHeartbeat> heartbeat = Events.heartbeat(job.jobId(), plan.planId(), table);
            renewedUntil.add(heartbeat.data().sentAt().plus(Duration.ofSeconds(10)));
            broker.send(heartbeat);
            String holder = given().get("/api/v1/tables/" + table).then().extract().path("lock.jobId");
            String lease = given().get("/api/v1/tables/" + table).then().extract().path("lock.leaseExpiresAt");
            assertThat(holder).isEqualTo(job.jobId());
            // The lease now ends one lease after a heartbeat was sent, later than the admission's lease.
            assertThat(renewedUntil).contains(Instant.parse(lease));
            assertThat(Instant.parse(lease)).isAfter(job.leaseExpiresAt());
        });
        given().get("/api/v1/tables/" + table).then().body("queued.size()", equalTo(0));
        broker.send(Events.finished(job.jobId(), plan.planId(), table, Engine.NATIVE));
    }

    @Test
    void aNewerPlanDropsTheQueuedOneItReplaces() {
        TableId table = Events.uniqueTable("superseded");
        String pauseId = pause(table.toString());
        MaintenancePlanned older = Events.plan(table, 60, null);
        MaintenancePlanned newer = Events.plan(table, 45, older.planId());
        Map<TopicPartition, Long> mark = broker.mark();
        broker.send(Events.planned(older));
        broker.deferred(mark, defer -> defer.planId().equals(older.planId()) && defer.reason() == DeferReason.PAUSED);

        broker.send(Events.planned(newer));

        JobDeferred dropped = (JobDeferred) broker.deferred(mark, defer -> defer.planId().equals(older.planId())
                && defer.reason() == DeferReason.SUPERSEDED).data();
        assertThat(dropped.message()).isEqualTo("plan " + older.planId() + " of " + table
                + " was replaced by newer plan " + newer.planId() + " before it started");
        assertThat(dropped.retryAfter()).isNull();
        given().header("Authorization", OPERATOR).delete("/api/v1/pauses/" + pauseId).then().statusCode(204);
        broker.admitted(mark, job -> job.planId().equals(newer.planId()));
        given().get("/api/v1/tables/" + table).then().body("queued.size()", equalTo(0));
    }

    @Test
    void aFinishedJobStartsTheCooldown() {
        TableId table = Events.uniqueTable("cooldown");
        MaintenancePlanned first = Events.plan(table, 50, null);
        MaintenancePlanned second = Events.plan(table, 50, null);
        Map<TopicPartition, Long> mark = broker.mark();
        broker.send(Events.planned(first));
        JobAdmitted job = (JobAdmitted) broker.admitted(mark, admitted -> admitted.planId().equals(first.planId())).data();
        broker.send(Events.finished(job.jobId(), first.planId(), table, Engine.NATIVE));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().get("/api/v1/tables/" + table).then()
                .body("lastJobFinishedAt", org.hamcrest.Matchers.notNullValue()));

        broker.send(Events.planned(second));

        JobDeferred deferred = (JobDeferred) broker.deferred(mark, defer -> defer.planId().equals(second.planId())).data();
        assertThat(deferred.reason()).isEqualTo(DeferReason.COOLDOWN);
        String finishedAt = given().get("/api/v1/tables/" + table).then().extract().path("lastJobFinishedAt");
        assertThat(deferred.retryAfter()).isEqualTo(Instant.parse(finishedAt).plus(Duration.ofMinutes(10)));

        // an operator's "fix now" inside the cooldown replaces the waiting plan and is admitted at once
        MaintenancePlanned fix = Events.plan(table, 50, second.planId());
        broker.send(Events.fixNow(fix, "operator:alice"));
        EventEnvelope<CryoEvent> admitted = broker.admitted(mark, admittedJob -> admittedJob.planId().equals(fix.planId()));
        assertThat(admitted.actor()).isEqualTo("operator:alice");
    }

    @Test
    void aTableWhoseJobsFailThreeTimesWithTheSameLastingErrorIsBlockedUntilAnOperatorResumesIt() {
        TableId table = Events.uniqueTable("failing");
        noCooldown(table);
        Map<TopicPartition, Long> mark = broker.mark();
        for (int attempt = 1; attempt <= 3; attempt++) {
            MaintenancePlanned plan = Events.plan(table, 50, null);
            broker.send(Events.planned(plan));
            JobAdmitted job = (JobAdmitted) broker.admitted(mark, admitted -> admitted.planId().equals(plan.planId())).data();
            broker.send(Events.failed(job.jobId(), plan.planId(), table, Engine.NATIVE, "NOT_ROUTABLE",
                    "Cannot run optimize:0 of " + table + " on trino"));
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().get("/api/v1/tables/" + table).then()
                    .statusCode(200).body("lock", org.hamcrest.Matchers.nullValue()));
        }
        given().get("/api/v1/tables/" + table).then().statusCode(200)
                .body("failures.failures", equalTo(3)).body("failures.blocked", equalTo(true))
                .body("failures.errorCode", equalTo("NOT_ROUTABLE"));

        MaintenancePlanned fourth = Events.plan(table, 50, null);
        broker.send(Events.planned(fourth));

        JobDeferred blocked = (JobDeferred) broker.deferred(mark, defer -> defer.planId().equals(fourth.planId())).data();
        assertThat(blocked.reason()).isEqualTo(DeferReason.BLOCKED);
        assertThat(blocked.message()).startsWith("the last 3 jobs on " + table + " failed with NOT_ROUTABLE, which a retry"
                + " does not cure").endsWith("then resume the table with ./cryo resume " + table);
        assertThat(blocked.retryAfter()).isNull();
        given().header("Authorization", VIEWER).post("/api/v1/tables/" + table + "/resume").then().statusCode(403);

        given().header("Authorization", OPERATOR).post("/api/v1/tables/" + table + "/resume").then().statusCode(204);

        JobAdmitted resumed = (JobAdmitted) broker.admitted(mark, job -> job.planId().equals(fourth.planId())).data();
        assertThat(resumed.table()).isEqualTo(table);
        given().get("/api/v1/tables/" + table).then().statusCode(200).body("failures", org.hamcrest.Matchers.nullValue());
    }

    private void noCooldown(TableId table) {
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON).body("{\"cooldown\": \"PT0S\"}")
                .put("/api/v1/policies/" + table).then().statusCode(200);
    }

    private String pause(String pattern) {
        return given().header("Authorization", OPERATOR).contentType(ContentType.JSON)
                .body("{\"pattern\": \"" + pattern + "\", \"reason\": \"test\"}")
                .post("/api/v1/pauses").then().statusCode(201).extract().path("id");
    }
}
