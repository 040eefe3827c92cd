package dev.cryo.cli.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryo.cli.api.ApiClient;
import dev.cryo.cli.api.Service;
import dev.cryo.contracts.cloudevents.EventType;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Against a demo whose default engine is Trino ({@code ./cryo demo --engine trino}, run with
 * {@code -Pe2e -Dcryo.e2e.groups=e2e-trino}): a table Trino cannot name is maintained by the
 * native engine with the reason in its plan and its steps; a table whose jobs can never succeed
 * is blocked after three attempts and runs again after {@code ./cryo resume}; {@code ./cryo fix}
 * asked while an automatic job holds the table ends with that job's outcome. The stack's failure
 * backoff is shortened to seconds ({@code .ci/demo-trino.properties}) so three attempts fit in a
 * test; everything else is the demo's own configuration.
 */
@Tag("e2e-trino")
class TrinoStackEndToEndTest {

    static final Duration COMMAND = DemoTables.COMMAND;
    final RunningDemo demo = new RunningDemo();
    final DemoTables written = new DemoTables(demo);

    @Test
    void aTableTrinoCannotNameIsMaintainedByTheNativeEngineWithTheReasonInItsPlan() throws Exception {
        long[] records = new long[1];
        written.withPausedTable(DemoTables.uniqueName("Mixed_Case"), Map.of(), (table, created) -> {
            DemoTables.fragment(created, new Random(31), 0);
            records[0] = totalRecords(created);
            written.awaitGradeOfCurrentSnapshot(table, created);
            assertThat(governed(table).path("engine").asText()).as("the table's engine on a stack started with --engine trino")
                    .isEqualTo("trino");
            await("the plan of " + table).atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(2)).ignoreExceptions()
                    .untilAsserted(() -> assertThat(demo.get("planner", "/api/v1/tables/" + ApiClient.segment(table) + "/plan")
                            .path("plan").path("operations").toString()).contains("optimize"));

            RunningDemo.Run plan = demo.cryo(COMMAND, "plan", table);

            assertThat(plan.exit()).as(plan.out() + plan.err()).isEqualTo(1);
            assertThat(plan.out()).contains("Engine: trino (the table's engine", "trino cannot run this (TABLE_NAME_NOT_SUPPORTED)",
                    "Trino folds schema and table names to lower case", "the executor routes it to the next engine of the table's policy");
        }, (table, created) -> {
            JsonNode score = written.awaitJobScore(table);
            String jobId = score.path("jobId").asText();
            JsonNode job = demo.get("executor", "/api/v1/jobs/" + ApiClient.segment(jobId)).path("job");
            assertThat(job.path("outcome").asText()).as(job.toString()).isEqualToIgnoringCase("succeeded");
            List<JsonNode> steps = new ArrayList<>();
            await("the audit's record of the steps of " + jobId).atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofSeconds(2))
                    .untilAsserted(() -> {
                        steps.clear();
                        steps.addAll(auditedSteps(table, jobId));
                        assertThat(steps).isNotEmpty();
                    });
            assertThat(steps).allSatisfy(step -> {
                assertThat(step.path("status").asText()).as(step.toString()).isEqualToIgnoringCase("succeeded");
                assertThat(step.path("engine").asText()).isEqualToIgnoringCase("native");
                assertThat(step.path("routedReason").asText()).startsWith("ran on native: trino cannot (TABLE_NAME_NOT_SUPPORTED)");
            });
            assertThat(score.path("actualScore").asInt()).as(score.path("message").asText())
                    .isGreaterThanOrEqualTo(score.path("expectedScore").asInt());
            created.refresh();
            assertThat(totalRecords(created)).as("rows of " + table + " after the job").isEqualTo(records[0]);
        });
    }

    /**
     * Avro data files, and a policy that keeps the table on the native engine, which rewrites only
     * Parquet: every job fails with UNSUPPORTED_FILE_FORMAT, an error a retry does not cure.
     */
    @Test
    void aTableWhoseJobsCanNeverSucceedIsBlockedAfterThreeAttemptsAndRunsAgainAfterResume() throws Exception {
        String name = DemoTables.uniqueName("avro");
        String table = DemoTables.tableId(name);
        ApiClient operator = demo.operator();
        String policy = "/api/v1/policies/" + ApiClient.segment(table);
        operator.putAsOperator(Service.GOVERNOR, policy, Map.of("engine", "native", "cooldown", "PT0S"));
        try {
            written.withTable(name, Map.of("write.format.default", "avro"), (id, created) -> {
                DemoTables.fragment(created, new Random(41), 0);

                await("three failed jobs on " + table + " and the table blocked").atMost(Duration.ofMinutes(5))
                        .pollInterval(Duration.ofSeconds(2)).ignoreExceptions()
                        .untilAsserted(() -> assertThat(governed(table).path("failures").path("blocked").asBoolean()).isTrue());
                JsonNode failures = governed(table).path("failures");
                assertThat(failures.path("failures").asInt()).isEqualTo(3);
                assertThat(failures.path("maxAttempts").asInt()).isEqualTo(3);
                assertThat(failures.path("errorCode").asText()).isEqualTo("UNSUPPORTED_FILE_FORMAT");
                List<JsonNode> jobs = written.jobsOf(table);
                assertThat(jobs).hasSize(3).allSatisfy(job -> {
                    assertThat(job.path("outcome").asText()).isEqualToIgnoringCase("failed");
                    assertThat(job.path("errorCode").asText()).isEqualTo("UNSUPPORTED_FILE_FORMAT");
                });

                // shown blocked, with the reason, in ./cryo tables, ./cryo jobs and the audit
                await("the next plan of " + table + " deferred as blocked").atMost(Duration.ofMinutes(2))
                        .pollInterval(Duration.ofSeconds(2)).untilAsserted(() -> {
                            RunningDemo.Run tables = demo.cryo(COMMAND, "tables", "--namespace", DemoTables.NAMESPACE);
                            assertThat(tables.out()).contains("blocked " + table + ": the last 3 jobs on " + table
                                    + " failed with UNSUPPORTED_FILE_FORMAT", "./cryo resume " + table);
                        });
                RunningDemo.Run queue = demo.cryo(COMMAND, "jobs", "--json");
                assertThat(queue.exit()).as(queue.err()).isIn(0, 1);
                List<String> blockedInQueue = new ArrayList<>();
                demo.json().readTree(queue.out()).path("deferred").forEach(plan -> {
                    if (table.equals(plan.path("table").asText())) {
                        blockedInQueue.add(plan.path("reason").asText() + ": " + plan.path("message").asText());
                    }
                });
                assertThat(blockedInQueue).anySatisfy(line -> assertThat(line).startsWith("blocked: the last 3 jobs on " + table));
                await("the audit's record of the blocked plan").atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofSeconds(2))
                        .untilAsserted(() -> assertThat(demo.get("audit", "/api/v1/audit?table=" + ApiClient.query(table)
                                + "&reason=blocked&limit=10").path("items")).isNotEmpty());

                // No fourth attempt: without the block, the backoff after the third failure (4 × the stack's
                // cryo.governor.failures.backoff) would have admitted one by now.
                Instant thirdFailed = Instant.parse(failures.path("lastFailedAt").asText());
                Duration wait = Duration.between(Instant.now(), thirdFailed.plus(backoff().multipliedBy(4)).plusSeconds(5));
                if (!wait.isNegative()) {
                    Thread.sleep(wait.toMillis());
                }
                assertThat(written.jobsOf(table)).as("jobs on " + table + " while it is blocked").hasSize(3);

                RunningDemo.Run resume = demo.cryo(COMMAND, "resume", table);

                assertThat(resume.exit()).as(resume.err()).isZero();
                assertThat(resume.out()).contains("resumed " + table + ": its last 3 jobs failed with UNSUPPORTED_FILE_FORMAT",
                        "and blocked it; they no longer count, its next plan runs");
                await("a job on " + table + " after the resume").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(2))
                        .untilAsserted(() -> assertThat(written.jobsOf(table)).hasSizeGreaterThan(3));
            });
        } finally {
            operator.deleteAsOperator(Service.GOVERNOR, policy);
        }
    }

    /**
     * An operator asks for a fix while the event flow's job holds the table: either the fix's own
     * plan waits for the lock and is dropped when that job commits (it was made from the snapshot
     * before), or the job commits before the fix's scan, which then finds nothing to do. Either way
     * the fix ends with the automatic job's outcome and the grade after it. The table is written
     * while paused and resumed the moment the fix is started, so the event flow's job (a few
     * seconds on Trino) runs while the command starts, scans and plans.
     */
    @Test
    void fixDuringARunningAutomaticJobEndsWithThatJobsOutcome() throws Exception {
        String name = DemoTables.uniqueName("busy");
        String table = DemoTables.tableId(name);
        ApiClient operator = demo.operator();
        RunningDemo.Run pause = demo.cryo(COMMAND, "pause", table, "--reason", "e2e: written first");
        assertThat(pause.exit()).as(pause.err()).isZero();
        try {
            written.withTable(name, Map.of(), (id, created) -> {
                DemoTables.fragment(created, new Random(51), 0, 60, 6, 100);
                written.awaitGradeOfCurrentSnapshot(table, created);
                await("the event flow's plan of " + table + " waiting for the pause").atMost(Duration.ofMinutes(2))
                        .pollInterval(Duration.ofSeconds(1)).ignoreExceptions().untilAsserted(() ->
                                assertThat(governed(table).path("queued").findValuesAsText("reason")).contains("paused"));

                CompletableFuture<RunningDemo.Run> running = CompletableFuture.supplyAsync(() -> {
                    try {
                        return demo.cryo(Duration.ofMinutes(8), "fix", table, "--json", "--timeout", "PT6M");
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                for (JsonNode held : demo.get("governor", "/api/v1/pauses")) {
                    if (table.equals(held.path("pattern").asText())) {
                        operator.deleteAsOperator(Service.GOVERNOR, "/api/v1/pauses/" + ApiClient.segment(held.path("id").asText()));
                    }
                }
                RunningDemo.Run fix = running.get(9, TimeUnit.MINUTES);
                System.out.println("./cryo fix " + table + " said:\n" + fix.err());

                assertThat(fix.exit()).as(fix.out() + fix.err()).isIn(0, 1);
                List<JsonNode> jobs = written.jobsOf(table);
                assertThat(jobs).as("jobs on " + table + "; the fix said: " + fix.err()).hasSize(1);
                String automatic = jobs.get(0).path("jobId").asText();
                assertThat(jobs.get(0).path("planId").asText()).as("the event flow's plan, not the fix's")
                        .isNotEqualTo(demo.json().readTree(fix.out()).path("plan").path("planId").asText());
                JsonNode result = demo.json().readTree(fix.out());
                assertThat(fix.err()).containsAnyOf("the fix ends with the job that held the table, " + automatic,
                        "nothing left to fix: job " + automatic + " was running on " + table);
                assertThat(result.path("followedJob").asText()).isEqualTo(automatic);
                assertThat(result.path("job").path("jobId").asText()).isEqualTo(automatic);
                assertThat(result.path("job").path("outcome").asText()).isEqualToIgnoringCase("succeeded");
                assertThat(result.path("outcome").asText()).isIn("fixed", "improved", "unchanged");
            });
        } finally {
            demo.cryo(COMMAND, "resume", table);
        }
    }

    private JsonNode governed(String table) throws Exception {
        return demo.get("governor", "/api/v1/tables/" + ApiClient.segment(table));
    }

    /** The stack's failure backoff, as the CI configuration sets it (the demo's default otherwise). */
    private Duration backoff() {
        return Duration.parse(System.getProperty("cryo.e2e.failure-backoff", "PT10S"));
    }

    /** The audited OperationFinished events of one job. */
    private List<JsonNode> auditedSteps(String table, String jobId) throws Exception {
        JsonNode page = demo.get("audit", "/api/v1/audit?table=" + ApiClient.query(table) + "&type="
                + ApiClient.query(EventType.OPERATION_FINISHED.id()) + "&limit=200");
        List<JsonNode> steps = new ArrayList<>();
        page.path("items").forEach(item -> {
            if (jobId.equals(item.path("payload").path("jobId").asText())) {
                steps.add(item.path("payload"));
            }
        });
        return steps;
    }

    private static long totalRecords(Table table) {
        table.refresh();
        return Long.parseLong(table.currentSnapshot().summary().get("total-records"));
    }
}
