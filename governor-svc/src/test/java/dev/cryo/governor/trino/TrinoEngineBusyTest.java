package dev.cryo.governor.trino;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.DeferReason;
import dev.cryo.contracts.event.JobAdmitted;
import dev.cryo.contracts.event.JobDeferred;
import dev.cryo.contracts.event.MaintenancePlanned;
import dev.cryo.governor.app.Broker;
import dev.cryo.governor.app.Events;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static dev.cryo.testsupport.OperatorOnly.OPERATOR;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The real-Trino proof (profile {@code engines}, needs {@code ./cryo infra up --with trino}): while
 * the test holds Trino busy with queries of another user, more than the limit, the governor
 * defers a Trino plan with {@code engine-busy}; once they end, it admits the plan.
 */
@QuarkusTest
@TestProfile(RealTrinoProfile.class)
@Tag("engines")
class TrinoEngineBusyTest {

    /** Rows that Trino produces only as fast as the client reads them: the query stays running, cheaply. */
    static final String ENDLESS = "SELECT a.x FROM UNNEST(sequence(1, 10000)) a(x) CROSS JOIN UNNEST(sequence(1, 10000)) b(y)";
    static final int HELD_QUERIES = 3;
    private static final List<Statement> OPEN_STATEMENTS = new ArrayList<>();

    @Test
    void aBusyTrinoDefersWithEngineBusyAndAdmitsWhenItsQueriesEnd() throws Exception {
        TableId table = Events.uniqueTable("real_trino");
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON).body("{\"engine\": \"trino\"}")
                .put("/api/v1/policies/" + table).then().statusCode(200);
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON).body("{\"maxForeignQueries\": 1}")
                .put("/api/v1/engines/trino").then().statusCode(200);
        MaintenancePlanned plan = Events.plan(table, 15, null);
        Instant started = Instant.now().minusSeconds(1);

        try (Broker broker = new Broker()) {
            Map<TopicPartition, Long> mark = broker.mark();
            List<Connection> held = holdTrinoBusy();
            try {
                broker.send(Events.planned(plan));

                JobDeferred deferred = (JobDeferred) broker.deferred(mark,
                        defer -> defer.planId().equals(plan.planId())).data();
                assertThat(deferred.reason()).isEqualTo(DeferReason.ENGINE_BUSY);
                assertThat(deferred.engine()).isEqualTo(Engine.TRINO);
                assertThat(deferred.message()).matches("engine trino runs \\d+ queries that are not Cryo's \\(limit 1\\)");
                int seen = Integer.parseInt(deferred.message().replaceAll("\\D+(\\d+).*", "$1"));
                assertThat(seen).isGreaterThanOrEqualTo(HELD_QUERIES);
                given().get("/api/v1/engines").then().statusCode(200)
                        .body("find { it.engine == 'trino' }.lastLoad.overLimit", org.hamcrest.Matchers.equalTo(true));
            } finally {
                release(held);
            }

            JobAdmitted job = (JobAdmitted) broker.admitted(mark, admitted -> admitted.planId().equals(plan.planId()))
                    .data();
            assertThat(job.engine()).isEqualTo(Engine.TRINO);
            broker.send(Events.finished(job.jobId(), plan.planId(), table, Engine.TRINO));
        }
        // The probe reads its answer to the end: a result closed unread is cancelled by the driver, and
        // Trino's operators would find a USER_CANCELED failure of Cryo's every few seconds.
        assertThat(probeQueries(started)).as("the governor's probe queries in Trino's history, by state")
                .containsKey("FINISHED").doesNotContainKey("FAILED");
    }

    /** The states of the governor's queries since then, with their counts. */
    private static Map<String, Integer> probeQueries(Instant since) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", "dashboards");
        Map<String, Integer> states = new java.util.TreeMap<>();
        try (Connection connection = DriverManager.getConnection(RealTrinoProfile.jdbcUrl(), properties);
             java.sql.PreparedStatement query = connection.prepareStatement("SELECT state, count(*) FROM "
                     + "system.runtime.queries WHERE source = 'cryo-governor' AND query LIKE 'EXECUTE %' AND created >= ?"
                     + " GROUP BY state")) {
            query.setTimestamp(1, java.sql.Timestamp.from(since));
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    states.put(rows.getString(1), rows.getInt(2));
                }
            }
        }
        return states;
    }

    /** Starts queries as a user that is not Cryo's and reads one row of each, so they stay running. */
    private static List<Connection> holdTrinoBusy() throws SQLException {
        List<Connection> connections = new ArrayList<>();
        Properties properties = new Properties();
        properties.setProperty("user", "dashboards");
        properties.setProperty("source", "governor-engine-test");
        for (int i = 0; i < HELD_QUERIES; i++) {
            Connection connection = DriverManager.getConnection(RealTrinoProfile.jdbcUrl(), properties);
            connections.add(connection);
            Statement statement = connection.createStatement();
            OPEN_STATEMENTS.add(statement);
            ResultSet rows = statement.executeQuery(ENDLESS);
            assertThat(rows.next()).isTrue();
        }
        return connections;
    }

    private static void release(List<Connection> connections) throws SQLException {
        // Closing a statement cancels its running query on the coordinator.
        for (Statement statement : OPEN_STATEMENTS) {
            statement.close();
        }
        OPEN_STATEMENTS.clear();
        for (Connection connection : connections) {
            connection.close();
        }
    }
}
