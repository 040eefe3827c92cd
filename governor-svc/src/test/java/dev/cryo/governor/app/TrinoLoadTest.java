package dev.cryo.governor.app;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.DeferReason;
import dev.cryo.contracts.event.JobAdmitted;
import dev.cryo.contracts.event.JobDeferred;
import dev.cryo.contracts.event.MaintenancePlanned;
import dev.cryo.governor.domain.EngineLoadProbe;
import io.quarkus.test.junit.QuarkusMock;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.cryo.testsupport.OperatorOnly.OPERATOR;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

/**
 * Admission on Trino's load: the queries Trino runs for others, counted by the load probe (here a
 * stand-in for Trino's {@code system.runtime.queries}; {@code trino.TrinoEngineBusyTest} loads a real Trino).
 */
@QuarkusTest
class TrinoLoadTest extends BrokerTest {

    @Test
    void aBusyTrinoDefersItsPlansAndAnIdleOneAdmitsThem() {
        AtomicInteger foreignQueries = new AtomicInteger(12);
        EngineLoadProbe fake = foreignQueries::get;
        QuarkusMock.installMockForType(fake, EngineLoadProbe.class);
        TableId table = Events.uniqueTable("trino");
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON).body("{\"engine\": \"trino\"}")
                .put("/api/v1/policies/" + table).then().statusCode(200).body("engine", equalTo("trino"));
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON)
                .body("{\"slots\": 5, \"maxForeignQueries\": 10}").put("/api/v1/engines/trino").then().statusCode(200)
                .body("slots", equalTo(5)).body("updatedBy", equalTo("operator:test-operator"));
        MaintenancePlanned plan = Events.plan(table, 10, null);
        Map<TopicPartition, Long> mark = broker.mark();

        broker.send(Events.planned(plan));

        JobDeferred deferred = (JobDeferred) broker.deferred(mark, defer -> defer.planId().equals(plan.planId())).data();
        assertThat(deferred.reason()).isEqualTo(DeferReason.ENGINE_BUSY);
        assertThat(deferred.engine()).isEqualTo(Engine.TRINO);
        assertThat(deferred.message()).isEqualTo("engine trino runs 12 queries that are not Cryo's (limit 10)");
        given().get("/api/v1/engines").then().statusCode(200)
                .body("find { it.engine == 'trino' }.lastLoad.limit", equalTo(10));

        foreignQueries.set(3);

        JobAdmitted job = (JobAdmitted) broker.admitted(mark, admitted -> admitted.planId().equals(plan.planId())).data();
        assertThat(job.engine()).isEqualTo(Engine.TRINO);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(given().get("/q/metrics").asString())
                .contains("cryo_governor_admitted_total{engine=\"trino\"}")
                .contains("cryo_governor_deferred_total{reason=\"engine-busy\"}")
                .contains("cryo_governor_trino_foreign_queries 3.0")
                .contains("cryo_governor_slots{engine=\"trino\"} 5.0")
                .contains("cryo_governor_slots_in_use{engine=\"trino\"} 1.0")
                .contains("cryo_governor_queue_depth"));
        broker.send(Events.finished(job.jobId(), plan.planId(), table, Engine.TRINO));
    }
}
