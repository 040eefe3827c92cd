package dev.cryo.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cryo.cli.FakeCryo;
import dev.cryo.cli.FakeCryo.Answer;
import dev.cryo.cli.Samples;
import dev.cryo.cli.api.Service;
import dev.cryo.contracts.json.EventJson;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class PlanCommandTest {

    FakeCryo cryo;

    @BeforeEach
    void start() throws Exception {
        cryo = new FakeCryo();
        cryo.json(Service.PLANNER, "GET", "/api/v1/tables/" + Samples.TABLE + "/plan",
                Samples.planView(Samples.plan(Instant.parse("2026-11-29T10:00:00Z"), null)));
    }

    @AfterEach
    void stop() {
        cryo.close();
    }

    @Test
    void trinoShowsTheStatementsOfEveryChunkAndEveryTableOperation() {
        FakeCryo.Run run = cryo.run("plan", Samples.TABLE, "--engine", "trino");

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.out()).contains("Plan plan-1 of lakehouse.demo.page_views: planned",
                "from grade C 72, expected score after it 100", "Engine: trino",
                "1. optimize  for [small-files] — 1 chunk, 210 files (1.3 MiB) in, about 1 out",
                "chunk 0: [spec 0] event_ts_day=2026-11-28",
                "SET SESSION \"lakehouse\".target_max_file_size = '2097152B';",
                "ALTER TABLE \"lakehouse\".\"demo\".\"page_views\" EXECUTE optimize(file_size_threshold => '1572864B')",
                "\"event_ts\" >= TIMESTAMP '2026-11-28 00:00:00.000000 UTC'",
                "2. expire_snapshots  for [snapshot-age]", "keep snapshots of the last 7 d 0 h, and at least the last 10",
                "trino cannot run this (PARAMETER_NOT_AVAILABLE)");
    }

    @Test
    void sparkShowsItsProcedureCalls() {
        FakeCryo.Run run = cryo.run("plan", Samples.TABLE, "--engine", "spark");

        assertThat(run.out()).contains("Engine: spark", "CALL `lakehouse`.system.rewrite_data_files(",
                "table => '`demo`.`page_views`'", "CALL `lakehouse`.system.expire_snapshots(", "retain_last => 10");
    }

    @Test
    void withoutAnEngineTheTablesEngineAtTheGovernorIsShown() {
        cryo.json(Service.GOVERNOR, "GET", "/api/v1/tables/" + Samples.TABLE, "{\"table\":\"" + Samples.TABLE + "\",\"engine\":\"native\"}");

        FakeCryo.Run run = cryo.run("plan", Samples.TABLE);

        assertThat(run.out()).contains("Engine: native (the table's engine", "native: runs in the executor through the Iceberg Java API, no SQL");
    }

    @Test
    void jsonCarriesThePlanAndTheStepsWithTheirSql() throws Exception {
        FakeCryo.Run run = cryo.run("plan", Samples.TABLE, "--engine", "trino", "--json");

        JsonNode result = new ObjectMapper().readTree(run.out());
        assertThat(result.path("engine").asText()).isEqualTo("trino");
        assertThat(result.path("source").asText()).isEqualTo("current");
        assertThat(result.path("plan").path("planId").asText()).isEqualTo("plan-1");
        assertThat(result.path("steps")).hasSize(2);
        assertThat(result.path("steps").get(0).path("statements").get(1).asText()).startsWith("ALTER TABLE");
        assertThat(result.path("steps").get(1).path("note").asText()).contains("cannot run this");
    }

    @Test
    void aTableWithoutAStoredPlanGetsThePlannersPreview() {
        cryo.route(Service.PLANNER, "GET", "/api/v1/tables/lakehouse.demo.trips/plan", request -> Answer.error(404,
                "TABLE_NOT_KNOWN", "Cannot show the plan of lakehouse.demo.trips: it has none"));
        var plan = Samples.plan(Instant.now(), null);
        cryo.json(Service.PLANNER, "POST", "/api/v1/plans/preview", """
                {"table":"lakehouse.demo.trips","scanId":"s","snapshotId":1,"score":80,"grade":"B","expectedScore":100,
                 "planned":true,"operations":%s,"estimate":{"inputFiles":1,"inputBytes":1,"deleteFiles":0,"expectedOutputFiles":1},
                 "notes":["optimize: 1 partition(s) in 1 chunk(s)"]}""".formatted(
                EventJson.writeString(plan.operations().subList(0, 1))));

        FakeCryo.Run run = cryo.run("plan", "lakehouse.demo.trips", "--engine", "trino");

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.out()).contains("No stored plan: Cannot show the plan of lakehouse.demo.trips: it has none",
                "Preview for lakehouse.demo.trips: grade B 80", "note: optimize: 1 partition(s) in 1 chunk(s)",
                "ALTER TABLE \"lakehouse\".\"demo\".\"trips\" EXECUTE optimize");
        assertThat(cryo.requests(Service.PLANNER, "POST", "/api/v1/plans/preview")).singleElement()
                .satisfies(request -> assertThat(request.body()).isEqualTo("{\"table\":\"lakehouse.demo.trips\"}"));
    }

    @Test
    void anUnknownEngineIsAUsageErrorNamingTheChoices() {
        FakeCryo.Run run = cryo.run("plan", Samples.TABLE, "--engine", "flink");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("Cannot use engine 'flink': expected native, trino or spark");
    }
}
