package dev.cryo.cli.command;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cryo.cli.FakeCryo;
import dev.cryo.cli.FakeCryo.Answer;
import dev.cryo.cli.Samples;
import dev.cryo.cli.api.Service;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class GradeAndTablesTest {

    FakeCryo cryo;
    final ObjectMapper json = new ObjectMapper();

    @BeforeEach
    void start() throws Exception {
        cryo = new FakeCryo();
    }

    @AfterEach
    void stop() {
        cryo.close();
    }

    @Test
    void gradeIsAToDoListWithMeasuredValuesLimitsAndFixesAndExitsOneForFindings() {
        cryo.json(Service.SCORER, "GET", "/api/v1/tables/" + Samples.TABLE,
                Samples.grade(Samples.TABLE, "C", 72, Instant.now(), Samples.smallFiles(), Samples.snapshotAge()));

        FakeCryo.Run run = cryo.run("grade", Samples.TABLE);

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.out()).contains("lakehouse.demo.page_views  grade C  score 72/100", "To do (2 findings, 28 points):")
                .contains("[ ] small-files          critical -20  100.0 %, limit 50.0 %   fix: optimize")
                .contains("100.0 % of data files are under 512 KiB (limit 50 %)")
                .contains("[ ] snapshot-age         warning  -8   20 d 0 h, limit 7 d 0 h   fix: expire_snapshots")
                .contains("Not evaluated: missing-statistics (the table holds 2.0 MiB")
                .contains("Fix now: ./cryo fix lakehouse.demo.page_views   (optimize, expire_snapshots)");
    }

    @Test
    void gradeJsonIsTheScorersAnswerUnchanged() throws Exception {
        String answer = Samples.grade(Samples.TABLE, "C", 72, Instant.now(), Samples.smallFiles(), Samples.snapshotAge());
        cryo.json(Service.SCORER, "GET", "/api/v1/tables/" + Samples.TABLE, answer);

        FakeCryo.Run run = cryo.run("grade", Samples.TABLE, "--json");

        assertThat(run.exit()).isEqualTo(1);
        assertThat(json.readTree(run.out())).isEqualTo(json.readTree(answer));
    }

    @Test
    void aHealthyTableExitsZero() {
        cryo.json(Service.SCORER, "GET", "/api/v1/tables/" + Samples.TABLE, Samples.grade(Samples.TABLE, "A", 100, Instant.now()));

        FakeCryo.Run run = cryo.run("grade", Samples.TABLE);

        assertThat(run.exit()).isZero();
        assertThat(run.out()).contains("grade A  score 100/100", "Nothing to do: no check takes a point off this table.");
    }

    @Test
    void findingsHeldByPolicyAreShownApartFromTheToDoListAndCostNothing() {
        String grade = Samples.grade(Samples.TABLE, "A", 100, Instant.now()).replace("\"correlationId\"", """
                "held":[{"check":"snapshot-count","severity":"WARNING","measured":187,"limit":100,"unit":"count",
                 "operation":"expire_snapshots","heldBy":"the table's history.expire.max-snapshot-age-ms = 7 days",
                 "explanation":"187 snapshots in table metadata (limit 100); all 187 snapshots are younger than the retention of 7 days"}],
                "correlationId\"""");
        cryo.json(Service.SCORER, "GET", "/api/v1/tables/" + Samples.TABLE, grade);

        FakeCryo.Run run = cryo.run("grade", Samples.TABLE);

        assertThat(run.exit()).isZero();
        assertThat(run.out()).contains("Nothing to do: no check takes a point off this table.",
                "Held by policy (no points; no operation can win them back until the setting changes):",
                "snapshot-count       held by the table's history.expire.max-snapshot-age-ms = 7 days",
                "all 187 snapshots are younger than the retention of 7 days");
    }

    @Test
    void aTableNeverGradedIsAnErrorWithTheScorersMessage() {
        cryo.route(Service.SCORER, "GET", "/api/v1/tables/lakehouse.demo.nope", request -> Answer.error(404,
                "TABLE_NOT_GRADED", "Cannot show lakehouse.demo.nope: it was never graded"));

        FakeCryo.Run run = cryo.run("grade", "lakehouse.demo.nope");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("error: Cannot show lakehouse.demo.nope: it was never graded");
    }

    @Test
    void tablesListsEveryPageWithFiltersAndExitsOneWhenATableHasFindings() throws Exception {
        cryo.route(Service.SCORER, "GET", "/api/v1/tables", request -> Answer.ok(request.query().contains("offset=0")
                ? page(3, row("lakehouse.demo.page_views", "D", 48, Samples.smallFiles()), row("lakehouse.demo.trips", "B", 80,
                Samples.smallFiles()))
                : page(3, row("lakehouse.demo.orders", "A", 100, null))));

        FakeCryo.Run run = cryo.run("tables", "--grade", "D,F", "--namespace", "demo");

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.out()).contains("TABLE", "GRADE", "WORST FINDING", "lakehouse.demo.page_views", "D      48",
                "small-files: 100.0 % of data files are under 512 KiB", "lakehouse.demo.orders", "3 tables: 1 A 1 B 1 D");
        assertThat(cryo.requests(Service.SCORER, "GET", "/api/v1/tables")).hasSize(2)
                .allSatisfy(request -> assertThat(request.query()).contains("grade=D%2CF", "namespace=demo", "limit=1000"));

        FakeCryo.Run jsonRun = cryo.run("tables", "--json");
        assertThat(json.readTree(jsonRun.out()).path("tables")).hasSize(3);
        assertThat(json.readTree(jsonRun.out()).path("total").asInt()).isEqualTo(3);
    }

    @Test
    void tablesSayWhichTablesWaitForAnOperatorAndWhy() throws Exception {
        cryo.json(Service.SCORER, "GET", "/api/v1/tables", page(2, row("lakehouse.demo.avro_events", "C", 68,
                Samples.smallFiles()), row("lakehouse.demo.orders", "B", 80, Samples.smallFiles())));
        cryo.json(Service.GOVERNOR, "GET", "/api/v1/queue", """
                {"running":[],"admitted":[],"deferred":[
                 {"planId":"p1","table":"lakehouse.demo.avro_events","score":68,"reason":"blocked","retryAfter":null,
                  "message":"the last 3 jobs on lakehouse.demo.avro_events failed with UNSUPPORTED_FILE_FORMAT"},
                 {"planId":"p2","table":"lakehouse.demo.orders","score":80,"reason":"cooldown","retryAfter":null,
                  "message":"cooling down"}]}""");

        FakeCryo.Run run = cryo.run("tables");

        assertThat(run.out()).contains("HELD", "blocked lakehouse.demo.avro_events: the last 3 jobs on "
                + "lakehouse.demo.avro_events failed with UNSUPPORTED_FILE_FORMAT; ./cryo resume lakehouse.demo.avro_events");
        assertThat(run.out()).doesNotContain("cooldown");
        var rows = json.readTree(cryo.run("tables", "--json").out()).path("tables");
        assertThat(rows.get(0).path("held").path("reason").asText()).isEqualTo("blocked");
        assertThat(rows.get(1).has("held")).isFalse();
    }

    @Test
    void tablesAreListedWhenTheGovernorDoesNotAnswer() {
        cryo.json(Service.SCORER, "GET", "/api/v1/tables", page(1, row("lakehouse.demo.orders", "A", 100, null)));

        FakeCryo.Run run = cryo.run("tables");

        assertThat(run.exit()).isZero();
        assertThat(run.out()).contains("lakehouse.demo.orders");
        assertThat(run.out()).contains("note: HELD is not shown, the governor did not answer");
    }

    @Test
    void tablesExitZeroWhenEveryTableIsHealthy() {
        cryo.json(Service.SCORER, "GET", "/api/v1/tables", page(1, row("lakehouse.demo.orders", "A", 100, null)));

        assertThat(cryo.run("tables").exit()).isZero();
    }

    private static String page(int total, String... rows) {
        return "{\"total\":" + total + ",\"limit\":1000,\"offset\":0,\"tables\":[" + String.join(",", rows) + "]}";
    }

    private static String row(String table, String grade, int score, String top) {
        return """
                {"table":"%s","catalog":"lakehouse","namespace":"demo","grade":"%s","score":%d,"topDeduction":%s,
                 "scanId":"s","snapshotId":1,"scannedAt":"%s","gradedAt":"%s"}""".formatted(table, grade, score,
                top == null ? "null" : top, Instant.now(), Instant.now());
    }
}
