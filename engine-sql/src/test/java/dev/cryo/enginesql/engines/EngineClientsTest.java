package dev.cryo.enginesql.engines;

import dev.cryo.contracts.Engine;
import dev.cryo.enginesql.EngineExecutionException;
import dev.cryo.enginesql.ExecutedStatement;
import dev.cryo.enginesql.spark.SparkConnectClient;
import dev.cryo.enginesql.trino.TrinoClient;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The clients on the real servers: Cryo's user and source tag are what Trino records, query ids
 * come back, a statement past the timeout is stopped, a cancelled job stops, and the session or
 * connection is still usable afterwards.
 */
@Tag("engines")
class EngineClientsTest {

    /** About 10^12 rows: runs far longer than any timeout here. */
    private static final String ENDLESS_TRINO = "SELECT count(*) FROM UNNEST(sequence(1, 10000)) a(x) "
            + "CROSS JOIN UNNEST(sequence(1, 10000)) b(y) CROSS JOIN UNNEST(sequence(1, 10000)) c(z)";
    private static final String ENDLESS_SPARK = "SELECT sum(id % 7) FROM range(0, 1000000000000)";
    /** How long a statement takes to reach execution on the local Spark Connect server (about 1 s in its log). */
    private static final Duration SPARK_START = Duration.ofSeconds(5);

    @BeforeAll
    static void engines() {
        RealEngines.requireRunning();
    }

    @Test
    void trinoRecordsCryosUserAndSourceUnderTheQueryId() {
        TrinoClient client = (TrinoClient) RealEngines.client(Engine.TRINO);
        List<ExecutedStatement> first = client.execute("tag-" + UUID.randomUUID(), List.of("SELECT 1"));
        String queryId = first.get(0).queryId();
        assertThat(queryId).matches("\\d{8}_\\d{6}_\\d{5}_\\w{5}");
        assertThat(first.get(0).rows()).containsExactly(List.of("1"));

        List<ExecutedStatement> lookup = client.execute("tag-" + UUID.randomUUID(),
                List.of("SELECT \"user\", source FROM system.runtime.queries WHERE query_id = '" + queryId + "'"));
        assertThat(lookup.get(0).rows()).containsExactly(List.of("cryo", "cryo"));
    }

    @Test
    void aTrinoStatementPastItsTimeoutIsStopped() {
        try (TrinoClient client = new TrinoClient(new TrinoClient.Settings(RealEngines.TRINO_URL, "cryo", "cryo", null,
                Duration.ofSeconds(2)))) {
            assertThatThrownBy(() -> client.execute("timeout-" + UUID.randomUUID(), List.of(ENDLESS_TRINO)))
                    .isInstanceOf(EngineExecutionException.class)
                    .hasMessageContaining("Cannot run statement on Trino (timed out, query ")
                    .satisfies(error -> assertThat(((EngineExecutionException) error).queryId()).isNotBlank());
            assertThat(client.execute("after-" + UUID.randomUUID(), List.of("SELECT 2")).get(0).rows())
                    .containsExactly(List.of("2"));
        }
    }

    @Test
    void aCancelledTrinoJobStops() {
        TrinoClient client = (TrinoClient) RealEngines.client(Engine.TRINO);
        String job = "cancel-" + UUID.randomUUID();
        CompletableFuture<List<ExecutedStatement>> running = CompletableFuture.supplyAsync(
                () -> client.execute(job, List.of(ENDLESS_TRINO + " -- " + job)));
        // Cancel once Trino lists the query as running, so the cancellation reaches a live query.
        await().atMost(Duration.ofSeconds(60)).until(() -> !client.execute("probe-" + UUID.randomUUID(), List.of(
                "SELECT query_id FROM system.runtime.queries WHERE state = 'RUNNING' AND query LIKE '%" + job + "%'"
                        + " AND query NOT LIKE '%system.runtime.queries%'")).get(0).rows().isEmpty());
        client.cancel(job);

        assertThat(running).failsWithin(Duration.ofSeconds(60)).withThrowableOfType(java.util.concurrent.ExecutionException.class)
                .havingCause().isInstanceOf(EngineExecutionException.class)
                .withMessageContaining("Cannot run statement on Trino (cancelled, query ");
    }

    @Test
    void aSparkStatementPastItsTimeoutIsInterruptedAndTheSessionStaysUsable() {
        try (SparkConnectClient client = new SparkConnectClient(new SparkConnectClient.Settings(RealEngines.SPARK_REMOTE, "cryo",
                Duration.ofSeconds(5)))) {
            assertThatThrownBy(() -> client.execute("timeout-" + UUID.randomUUID(), List.of(ENDLESS_SPARK)))
                    .isInstanceOf(EngineExecutionException.class)
                    .hasMessageContaining("Cannot run statement on Spark (timed out, query ")
                    .hasMessageEndingWith("it ran longer than PT5S");
            List<ExecutedStatement> after = client.execute("after-" + UUID.randomUUID(), List.of("SELECT 2"));
            assertThat(after.get(0).rows()).containsExactly(List.of("2"));
            assertThat(after.get(0).queryId()).contains("/cryo-");
        }
    }

    @Test
    void aCancelledSparkJobStops() throws InterruptedException {
        SparkConnectClient client = (SparkConnectClient) RealEngines.client(Engine.SPARK);
        String job = "cancel-" + UUID.randomUUID();
        long started = System.nanoTime();
        CompletableFuture<List<ExecutedStatement>> running = CompletableFuture.supplyAsync(
                () -> client.execute(job, List.of(ENDLESS_SPARK)));
        // Let Spark reach execution first: an interrupt that lands while Spark 4.0.1 still analyses and
        // plans the statement ends the operation, but the Spark job it then submits runs on untracked
        // and holds both local[2] cores (seen in CI: every later statement waited 5 min). See the
        // engine-sql README, "Cancelling on Spark".
        Thread.sleep(SPARK_START.toMillis());
        // Spark lists no running operations to the client: cancel until the job has stopped.
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofSeconds(1)).until(() -> {
            client.cancel(job);
            return running.isDone();
        });

        assertThat(running).failsWithin(Duration.ZERO).withThrowableOfType(java.util.concurrent.ExecutionException.class)
                .havingCause().isInstanceOf(EngineExecutionException.class)
                .withMessageContaining("Cannot run statement on Spark (cancelled, query ");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMinutes(2));
        assertThat(client.execute("after-" + UUID.randomUUID(), List.of("SELECT 3")).get(0).rows()).containsExactly(List.of("3"));
    }
}
