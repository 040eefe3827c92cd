package dev.cryo.governor.app;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.DeferReason;
import dev.cryo.contracts.event.JobAdmitted;
import dev.cryo.contracts.event.JobDeferred;
import dev.cryo.contracts.event.JobRefused;
import dev.cryo.contracts.event.JobRevoked;
import dev.cryo.contracts.event.MaintenancePlanned;
import dev.cryo.governor.persistence.JobStore;
import io.agroal.api.AgroalDataSource;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static dev.cryo.testsupport.OperatorOnly.OPERATOR;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;

/**
 * An admission that no longer holds: an executor's refusal of a stale admission is noted and
 * leaves the job to its lease; a pause revokes the job holding the table, and a job whose lease
 * ends while its table is paused is not admitted again. Real broker and database.
 */
@QuarkusTest
class AdmissionWithdrawalTest extends BrokerTest {

    @Inject
    JobStore jobs;
    @Inject
    AgroalDataSource dataSource;

    @Test
    void aRefusalIsNotedAndTheLeaseDecidesWhatFollows() {
        TableId table = Events.uniqueTable("refused");
        MaintenancePlanned plan = Events.plan(table, 30, null);
        Map<TopicPartition, Long> mark = broker.mark();
        broker.send(Events.planned(plan));
        JobAdmitted job = (JobAdmitted) broker.admitted(mark, admitted -> admitted.planId().equals(plan.planId())).data();

        broker.send(EventEnvelope.startChain(new JobRefused(job.jobId(), plan.planId(), table, "executor-x", job.admittedAt(),
                job.leaseExpiresAt(), "lease-expired", "its lease ended before this executor took it up", Instant.now()),
                "/cryo/executor", Instant.now()));

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().get("/api/v1/queue").then()
                .body("admitted.find { it.jobId == '" + job.jobId() + "' }.note",
                        startsWith("the admission at " + job.admittedAt() + " was refused by executor executor-x"
                                + " (lease-expired): its lease ended")));
        // The refusal ends nothing: the table stays held until the lease runs out, then the job is admitted again.
        given().get("/api/v1/tables/" + table).then().body("lock.jobId", equalTo(job.jobId()));
        JobAdmitted again = (JobAdmitted) broker.admitted(mark, readmitted -> readmitted.jobId().equals(job.jobId())
                && readmitted.admittedAt().isAfter(job.admittedAt())).data();
        assertThat(again.leaseExpiresAt()).isAfter(job.leaseExpiresAt());
        broker.send(Events.finished(job.jobId(), plan.planId(), table, Engine.NATIVE));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().get("/api/v1/tables/" + table).then()
                .body("lock", nullValue()));
    }

    @Test
    void aPauseRevokesTheJobHoldingTheTableAndItsExpiredLeaseIsNotAdmittedAgain() {
        TableId table = Events.uniqueTable("revoked");
        TableId other = Events.uniqueTable("not_paused");
        MaintenancePlanned plan = Events.plan(table, 30, null);
        MaintenancePlanned otherPlan = Events.plan(other, 30, null);
        Map<TopicPartition, Long> mark = broker.mark();
        broker.send(Events.planned(plan));
        broker.send(Events.planned(otherPlan));
        JobAdmitted job = (JobAdmitted) broker.admitted(mark, admitted -> admitted.planId().equals(plan.planId())).data();
        JobAdmitted otherJob = (JobAdmitted) broker.admitted(mark, admitted -> admitted.planId().equals(otherPlan.planId()))
                .data();

        String pauseId = given().header("Authorization", OPERATOR).contentType(ContentType.JSON)
                .body("{\"pattern\": \"" + table + "\", \"reason\": \"quarter close\"}")
                .post("/api/v1/pauses").then().statusCode(201)
                .body("revokedJobs", org.hamcrest.Matchers.contains(job.jobId()))
                .extract().path("id");

        List<EventEnvelope<CryoEvent>> revocations = broker.collect(mark, event -> event instanceof JobRevoked,
                found -> found.stream().anyMatch(envelope -> ((JobRevoked) envelope.data()).jobId().equals(job.jobId())));
        JobRevoked revoked = revocations.stream().map(envelope -> (JobRevoked) envelope.data())
                .filter(event -> event.jobId().equals(job.jobId())).findFirst().orElseThrow();
        assertThat(revoked.pauseId()).isEqualTo(pauseId);
        assertThat(revoked.message()).isEqualTo("table paused by operator:test-operator ('" + table + "'): quarter close");
        assertThat(revocations).noneMatch(envelope -> ((JobRevoked) envelope.data()).jobId().equals(otherJob.jobId()));
        given().get("/api/v1/queue").then().body("admitted.find { it.jobId == '" + job.jobId() + "' }.note",
                startsWith("revoked: table paused by operator:test-operator"));

        // No executor answers: when the 10 s lease of the test profile ends, the paused table is released, not re-admitted.
        await().atMost(Duration.ofSeconds(40)).untilAsserted(() -> given().get("/api/v1/tables/" + table).then()
                .body("lock", nullValue()));
        JobStore.Job ended = QuarkusTransaction.requiringNew().call(() -> jobs.find(job.jobId())).orElseThrow();
        assertThat(ended.outcome()).isEqualTo("cancelled");
        assertThat(ended.attempt()).as("never admitted again").isEqualTo(1);
        assertThat(ended.note()).contains("while the table is paused by operator:test-operator", pauseId,
                "not admitted again");
        given().get("/api/v1/tables/" + table).then().body("failures", nullValue());

        given().header("Authorization", OPERATOR).delete("/api/v1/pauses/" + pauseId).then().statusCode(204);
        broker.send(Events.finished(otherJob.jobId(), otherPlan.planId(), other, Engine.NATIVE));
    }

    /**
     * A pause and an admission of the same table at the same moment: the admission waits for the
     * pause's transaction and then sees the pause, so no job starts on a paused table unrevoked.
     * The test holds the pause's lock itself and inserts the pause while a plan is being decided.
     */
    @Test
    void anAdmissionDecidedWhileAPauseIsBeingMadeSeesThePause() throws Exception {
        TableId table = Events.uniqueTable("racing_pause");
        MaintenancePlanned plan = Events.plan(table, 30, null);
        Map<TopicPartition, Long> mark = broker.mark();
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try (Statement lock = connection.createStatement()) {
                lock.execute("SELECT pg_advisory_xact_lock(hashtextextended(current_schema() || '/pauses', 0))");
            }
            broker.send(Events.planned(plan));
            // The decision waits for the pause's transaction: nothing is admitted meanwhile.
            Thread.sleep(3_000);
            given().get("/api/v1/tables/" + table).then().body("lock", nullValue());
            try (PreparedStatement pause = connection.prepareStatement(
                    "INSERT INTO pause (pause_id, pattern, reason, paused_by, paused_at) VALUES (?, ?, 'race', 'operator:test', now())")) {
                pause.setString(1, "race-" + table.table());
                pause.setString(2, table.toString());
                pause.executeUpdate();
            }
            connection.commit();
        }

        JobDeferred deferred = (JobDeferred) broker.deferred(mark, defer -> defer.planId().equals(plan.planId())).data();
        assertThat(deferred.reason()).isEqualTo(DeferReason.PAUSED);
        given().get("/api/v1/tables/" + table).then().body("lock", nullValue());
        given().header("Authorization", OPERATOR).delete("/api/v1/pauses/race-" + table.table()).then().statusCode(204);
        JobAdmitted admitted = (JobAdmitted) broker.admitted(mark, job -> job.planId().equals(plan.planId())).data();
        broker.send(Events.finished(admitted.jobId(), plan.planId(), table, Engine.NATIVE));
    }
}
