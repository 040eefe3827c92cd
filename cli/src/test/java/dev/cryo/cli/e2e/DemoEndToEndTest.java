package dev.cryo.cli.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryo.cli.api.ApiClient;
import dev.cryo.cli.api.Service;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Against the demo that {@code ./cryo demo} started (run with {@code -Pe2e}): every table of the
 * demo namespace is graded, {@code ./cryo grade --json} says what the scorer and the console
 * show, {@code ./cryo plan} shows SQL, and {@code ./cryo fix} on a fragmented table leads to a
 * job and a better grade. Nothing here is faked: the script, the services and the catalog are the
 * running ones.
 */
@Tag("e2e")
class DemoEndToEndTest {

    static final Duration COMMAND = Duration.ofMinutes(2);
    final RunningDemo demo = new RunningDemo();
    final DemoTables written = new DemoTables(demo);

    @Test
    void everyDemoTableHasAGrade() throws Exception {
        List<String> tables = demo.demoTables();
        assertThat(tables).as("tables of %s.%s in the catalog", RunningDemo.CATALOG, RunningDemo.NAMESPACE).hasSizeGreaterThanOrEqualTo(12);

        await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(3)).untilAsserted(() -> {
            RunningDemo.Run run = demo.cryo(COMMAND, "tables", "--catalog", RunningDemo.CATALOG, "--namespace",
                    RunningDemo.NAMESPACE, "--json");
            assertThat(run.exit()).as(run.err()).isIn(0, 1);
            List<String> graded = new ArrayList<>();
            demo.json().readTree(run.out()).path("tables").forEach(row -> {
                assertThat(row.path("grade").asText()).matches("[ABCDF]");
                graded.add(row.path("table").asText());
            });
            assertThat(graded).containsAll(tables);
        });
    }

    @Test
    void gradeJsonSaysWhatTheScorerAndTheConsoleShow() throws Exception {
        for (String table : demo.demoTables()) {
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(2)).untilAsserted(() -> {
                RunningDemo.Run run = demo.cryo(COMMAND, "grade", table, "--json");
                JsonNode cli = demo.json().readTree(run.out());
                JsonNode scorer = demo.get("scorer", "/api/v1/tables/" + table);
                String console = demo.page("/tables/" + table);
                // a live table may be graded again between the three reads: compare one grading
                assertThat(scorer.path("scanId").asText()).as(table + " graded meanwhile").isEqualTo(cli.path("scanId").asText());
                assertThat(run.exit()).isEqualTo(cli.path("deductions").isEmpty() ? 0 : 1);
                assertThat(cli.path("score")).isEqualTo(scorer.path("score"));
                assertThat(cli.path("grade")).isEqualTo(scorer.path("grade"));
                assertThat(cli.path("deductions")).isEqualTo(scorer.path("deductions"));
                String[] version = consoleVersion(table).split("/", 2);
                assertThat(Instant.parse(version[1])).as(table + " graded again before the console's page")
                        .isEqualTo(Instant.parse(cli.path("gradedAt").asText()));
                assertThat(Integer.parseInt(version[0])).as(table + " on the console's fleet page").isEqualTo(cli.path("score").asInt());
                for (JsonNode deduction : cli.path("deductions")) {
                    assertThat(console).as(table + " on the console's table page").contains(deduction.path("check").asText());
                }
            });
        }
    }

    @Test
    void planShowsTheSqlEachEngineWouldRun() throws Exception {
        String table = demo.demoTables().stream().filter(this::hasPlan).findFirst().orElseThrow(() ->
                new AssertionError("no demo table has a plan: the fleet's fragmented tables should have one"));

        RunningDemo.Run trino = demo.cryo(COMMAND, "plan", table, "--engine", "trino");
        RunningDemo.Run spark = demo.cryo(COMMAND, "plan", table, "--engine", "spark", "--json");

        assertThat(trino.exit()).as(trino.err()).isIn(0, 1);
        assertThat(trino.out()).contains("Engine: trino");
        assertThat(trino.out()).containsAnyOf("ALTER TABLE \"lakehouse\".\"demo\"", "ANALYZE \"lakehouse\".\"demo\"", "trino cannot run this");
        JsonNode steps = demo.json().readTree(spark.out()).path("steps");
        assertThat(steps).isNotEmpty();
        assertThat(steps.get(0).path("engine").asText()).isEqualTo("spark");
        assertThat(steps.toString()).contains("CALL `lakehouse`.system.");
    }

    @Test
    void sweepOfTheDemoNamespaceAsksForAScanOfEachOfItsTablesAndEachIsGradedAgain() throws Exception {
        List<String> tables = demo.demoTables();
        Instant asked = Instant.now();

        RunningDemo.Run sweep = demo.cryo(COMMAND, "sweep", "--catalog", RunningDemo.CATALOG, "--namespace",
                RunningDemo.NAMESPACE, "--json");

        assertThat(sweep.exit()).as(sweep.err()).isZero();
        JsonNode swept = demo.json().readTree(sweep.out());
        assertThat(swept.path("tables").asInt()).isEqualTo(tables.size());
        assertThat(swept.path("requestedBy").asText()).startsWith("operator:");
        await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(3)).untilAsserted(() -> {
            for (String table : tables) {
                JsonNode grade = demo.get("scorer", "/api/v1/tables/" + table);
                assertThat(Instant.parse(grade.path("scannedAt").asText())).as(table + " scanned since the sweep")
                        .isAfter(asked);
            }
        });
    }

    /**
     * The demo's own event flow notices a new fragmented table within seconds and may compact it
     * before {@code ./cryo fix} gets to scan it (then there is nothing to fix). So the table gets a
     * policy with a cooldown of an hour, the event flow's first job is awaited, and only then is the
     * table fragmented again: the event flow now waits out the cooldown, which an operator's fix
     * waives, and the job that follows is the fix's own.
     */
    @Test
    void fixOnAFragmentedTableLeadsToAJobAndABetterGrade() throws Exception {
        String name = DemoTables.uniqueName("fragmented");
        String table = DemoTables.tableId(name);
        ApiClient operator = demo.operator();
        String policy = "/api/v1/policies/" + ApiClient.segment(table);
        operator.putAsOperator(Service.GOVERNOR, policy, Map.of("cooldown", "PT1H"));
        try {
            written.withTable(name, Map.of(), (id, created) -> {
                Random random = new Random(11);
                DemoTables.fragment(created, random, 0);
                await("the event flow's first job on " + table).atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofSeconds(2))
                        .untilAsserted(() -> {
                            JsonNode governed = demo.get("governor", "/api/v1/tables/" + ApiClient.segment(table));
                            assertThat(governed.path("cooldown").asText()).isEqualTo("PT1H");
                            assertThat(governed.path("lastJobFinishedAt").isTextual()).as("a job on it finished").isTrue();
                            assertThat(governed.path("lock").isNull() || governed.path("lock").isMissingNode()).as("unlocked").isTrue();
                        });
                created.refresh();
                DemoTables.fragment(created, random, 1_000_000);
                Instant asked = Instant.now();
                RunningDemo.Run fix = demo.cryo(Duration.ofMinutes(8), "fix", table, "--json", "--timeout", "PT7M");

                JsonNode result = demo.json().readTree(fix.out());
                assertThat(fix.exit()).as(fix.err()).isIn(0, 1);
                assertThat(fix.err()).contains("asked for a scan of " + table, "graded", "planned", "job", "new grade");
                assertThat(result.path("graded").path("deductions").toString()).contains("small-files");
                assertThat(result.path("job").path("outcome").asText()).isEqualTo("succeeded");
                assertThat(result.path("after").path("score").asInt()).isGreaterThan(result.path("graded").path("score").asInt());
                assertThat(result.path("outcome").asText()).isIn("fixed", "improved");
                assertThat(result.path("score").path("jobId").asText()).as("the planner's score of the job")
                        .isEqualTo(result.path("job").path("jobId").asText());
                assertThat(fix.err()).contains("promise");

                assertThat(written.jobsOf(table)).isNotEmpty();
                JsonNode now = demo.get("scorer", "/api/v1/tables/" + table);
                assertThat(Instant.parse(now.path("gradedAt").asText())).isAfter(asked);
                assertThat(now.path("score").asInt()).isGreaterThan(result.path("graded").path("score").asInt());
            });
        } finally {
            operator.deleteAsOperator(Service.GOVERNOR, policy);
        }
    }

    /**
     * Issue 23's young snapshots: a table of 105 commits, every snapshot within the retention. Its
     * grade shows {@code snapshot-count} as held by policy (no points), no plan expires snapshots,
     * and the job's expected score is the score of the grade after it. The table is paused while it
     * is written, so the job is made from the scan of its last commit.
     */
    @Test
    void youngSnapshotsAreHeldByPolicyAndTheJobReachesExactlyTheScoreItsPlanExpected() throws Exception {
        written.withPausedTable(DemoTables.uniqueName("young"), Map.of(), (table, created) -> {
            DemoTables.fragment(created, new Random(23), 0, 105, 3, 40);
            JsonNode before = written.awaitGradeOfCurrentSnapshot(table, created);
            assertThat(before.path("held").findValuesAsText("check")).contains("snapshot-count");
            assertThat(before.path("deductions").findValuesAsText("check")).contains("small-files")
                    .doesNotContain("snapshot-count");
        }, (table, created) -> {
            JsonNode score = written.awaitJobScore(table);
            assertThat(score.path("noOp").asBoolean()).as(score.toString()).isFalse();
            assertThat(score.path("actualScore").asInt()).as(score.path("message").asText())
                    .isEqualTo(score.path("expectedScore").asInt());
            JsonNode plans = demo.get("planner", "/api/v1/tables/" + ApiClient.segment(table) + "/plans?limit=50");
            assertThat(plans.path("plans").size()).isGreaterThanOrEqualTo(1);
            plans.path("plans").forEach(plan -> assertThat(plan.path("operations").toString()).contains("optimize")
                    .doesNotContain("expire_snapshots"));
            JsonNode after = demo.get("scorer", "/api/v1/tables/" + ApiClient.segment(table));
            assertThat(after.path("held").findValuesAsText("check")).contains("snapshot-count");
            assertThat(after.path("deductions").findValuesAsText("check")).doesNotContain("small-files", "snapshot-count");
        });
    }

    /**
     * Issue 23's tiny partitions: 3 000 rows in 6 day partitions, written in 10 commits. One
     * compaction leaves one file per partition, which is as compact as the table gets: the grade
     * after the job keeps no {@code small-files} deduction, and a fix asked for afterwards finds
     * nothing to do.
     */
    @Test
    void aTinyPartitionedTableIsCompactedOnceAndThenLeftAlone() throws Exception {
        written.withPausedTable(DemoTables.uniqueName("tiny"), Map.of(), (table, created) -> {
            DemoTables.fragment(created, new Random(6), 0, 10, 6, 50);
            JsonNode before = written.awaitGradeOfCurrentSnapshot(table, created);
            assertThat(before.path("deductions").findValuesAsText("check")).contains("small-files");
        }, (table, created) -> {
            JsonNode score = written.awaitJobScore(table);
            assertThat(score.path("actualScore").asInt()).as(score.path("message").asText())
                    .isGreaterThanOrEqualTo(score.path("expectedScore").asInt());
            created.refresh();
            assertThat(created.currentSnapshot().summary().get("total-data-files")).isEqualTo("6");
            RunningDemo.Run fix = demo.cryo(Duration.ofMinutes(3), "fix", table, "--timeout", "PT2M");
            assertThat(fix.exit()).as(fix.out() + fix.err()).isZero();
            assertThat(fix.out()).contains("nothing to fix");
        });
    }

    private boolean hasPlan(String table) {
        try {
            return demo.get("planner", "/api/v1/tables/" + table + "/plan").path("plan").path("operations").size() > 0;
        } catch (Exception e) {
            return false;
        }
    }

    /** {@code <score>/<gradedAt>} of the table's row on the console's fleet page (its data-version attribute). */
    private String consoleVersion(String table) throws Exception {
        String fleet = demo.page("/?catalog=" + RunningDemo.CATALOG + "&namespace=" + RunningDemo.NAMESPACE);
        Matcher row = Pattern.compile("data-table=\"" + Pattern.quote(table) + "\"\\s+data-version=\"([^\"]+)\"").matcher(fleet);
        assertThat(row.find()).as(table + " has a row on the console's fleet page").isTrue();
        return row.group(1);
    }
}
