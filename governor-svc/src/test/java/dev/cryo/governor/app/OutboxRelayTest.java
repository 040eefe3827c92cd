package dev.cryo.governor.app;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.cloudevents.EventType;
import dev.cryo.contracts.event.DeferReason;
import dev.cryo.contracts.event.JobAdmitted;
import dev.cryo.contracts.event.JobDeferred;
import dev.cryo.contracts.event.MaintenancePlanned;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static dev.cryo.testsupport.OperatorOnly.OPERATOR;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The governor's outbox on the real broker and database: one instance at a time publishes it. */
@QuarkusTest
class OutboxRelayTest extends BrokerTest {

    @Inject
    AgroalDataSource dataSource;

    /**
     * While another governor instance holds the relay's turn (here: this test, with the same
     * advisory lock), this one goes on deciding: its decisions wait in the outbox, unpublished,
     * and leave once the turn is free. The tables are paused, so the decisions are deferrals and
     * need no free slot.
     */
    @Test
    void decisionsGoOnWhileAnotherInstancePublishesTheOutbox() throws Exception {
        TableId first = Events.uniqueTable("relay");
        TableId second = TableId.parse(first + "_second");
        String pauseId = given().header("Authorization", OPERATOR).contentType(ContentType.JSON)
                .body("{\"pattern\": \"" + first + "*\", \"reason\": \"relay test\"}")
                .post("/api/v1/pauses").then().statusCode(201).extract().path("id");
        MaintenancePlanned firstPlan = Events.plan(first, 40, null);
        MaintenancePlanned secondPlan = Events.plan(second, 40, null);
        Map<TopicPartition, Long> mark = broker.mark();
        try (Connection otherInstance = dataSource.getConnection();
             Statement lock = otherInstance.createStatement()) {
            lock.execute("SELECT pg_advisory_lock(hashtextextended(current_schema() || '/outbox', 0))");
            try {
                broker.send(Events.planned(firstPlan));
                await().atMost(Duration.ofSeconds(60)).until(() -> unpublished(first, EventType.JOB_DEFERRED) == 1);
                broker.send(Events.planned(secondPlan));
                await().atMost(Duration.ofSeconds(60)).until(() -> unpublished(second, EventType.JOB_DEFERRED) == 1);
                assertThat(unpublished(first, EventType.JOB_DEFERRED))
                        .as("still unpublished while the other instance has the turn").isEqualTo(1);
            } finally {
                // A session-level lock outlives close(): the pool keeps the session. Left held, it would stop this
                // service's outbox for every later test (unless the relay happened to draw this same session).
                lock.execute("SELECT pg_advisory_unlock(hashtextextended(current_schema() || '/outbox', 0))");
            }
        }
        assertThat(((JobDeferred) broker.deferred(mark, defer -> defer.planId().equals(firstPlan.planId())).data())
                .reason()).isEqualTo(DeferReason.PAUSED);
        assertThat(((JobDeferred) broker.deferred(mark, defer -> defer.planId().equals(secondPlan.planId())).data())
                .reason()).isEqualTo(DeferReason.PAUSED);
        // Lifted, the pause lets both plans in; their jobs finish so that they hold no slot after this test.
        given().header("Authorization", OPERATOR).delete("/api/v1/pauses/" + pauseId).then().statusCode(204);
        for (MaintenancePlanned plan : List.of(firstPlan, secondPlan)) {
            JobAdmitted job = (JobAdmitted) broker.admitted(mark, admitted -> admitted.planId().equals(plan.planId())).data();
            broker.send(Events.finished(job.jobId(), plan.planId(), plan.table(), Engine.NATIVE));
        }
    }

    private long unpublished(TableId table, EventType type) throws Exception {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement query = connection.prepareStatement("SELECT count(*) FROM outbox WHERE subject = ? "
                     + "AND event_type = ? AND published_at IS NULL")) {
            query.setString(1, table.toString());
            query.setString(2, type.id());
            try (ResultSet rows = query.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }
}
