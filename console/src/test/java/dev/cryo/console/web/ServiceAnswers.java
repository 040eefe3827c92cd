package dev.cryo.console.web;

import dev.cryo.console.client.ExecutorApi.ExecutorJob;
import dev.cryo.console.client.GovernorApi.GovernedTable;
import dev.cryo.console.client.GovernorApi.Pause;
import dev.cryo.console.client.GovernorApi.Policy;
import dev.cryo.console.client.PlannerApi.CurrentPlan;
import dev.cryo.console.client.ScannerApi.ScannedTable;
import dev.cryo.console.client.ScorerApi.GradedTable;
import dev.cryo.console.client.ScorerApi.GradedTables;
import dev.cryo.console.client.ScorerApi.TableGrade;
import dev.cryo.contracts.Check;
import dev.cryo.contracts.Grade;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.Severity;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.Chunk;
import dev.cryo.contracts.event.Deduction;
import dev.cryo.contracts.event.Estimate;
import dev.cryo.contracts.event.FieldPredicate;
import dev.cryo.contracts.event.FileSizeTerms;
import dev.cryo.contracts.event.MaintenancePlanned;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.contracts.event.PartitionFieldInfo;
import dev.cryo.contracts.event.PartitionPredicate;
import dev.cryo.contracts.event.PartitionSpecInfo;
import dev.cryo.contracts.event.PartitionStats;
import dev.cryo.contracts.event.PlannedOperation;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.contracts.event.TableTotals;
import dev.cryo.contracts.json.EventJson;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** What the services answer in the web tests, written as the services write it (Cryo's JSON mapping). */
final class ServiceAnswers {

    static final Instant NOW = Instant.now();
    static final String CLICKS = "lake.web.clicks";

    static final Deduction SMALL_FILES = new Deduction(Check.SMALL_FILES, Severity.CRITICAL, 20, 0.623, 0.5, "share",
            Operation.OPTIMIZE, "62.3 % of data files are under 128 MiB (limit 50 %)");
    static final Deduction SNAPSHOTS = new Deduction(Check.SNAPSHOT_COUNT, Severity.WARNING, 8, 140, 100, "count",
            Operation.EXPIRE_SNAPSHOTS, "140 snapshots in table metadata (limit 100)");

    static String json(Object value) {
        return EventJson.writeString(value);
    }

    static String fleet(GradedTable... tables) {
        return json(new GradedTables(tables.length, 1000, 0, List.of(tables)));
    }

    static GradedTable graded(String table, Grade grade, int score, Deduction top) {
        TableId id = TableId.parse(table);
        return new GradedTable(table, id.catalog(), id.namespaceName(), grade, score, top, "scan-1", 5L,
                NOW.minusSeconds(70), NOW.minusSeconds(60));
    }

    static ScannedTable scanned(String table) {
        return new ScannedTable(table, NOW.minusSeconds(65), "commit-report", 5L, false, null, null, null);
    }

    static String grade(String table, int score, Grade grade) {
        return json(new TableGrade(table, grade, score, null, false, 1.0, "scan-1", 5L, NOW.minusSeconds(70),
                NOW.minusSeconds(60), List.of(Operation.OPTIMIZE, Operation.EXPIRE_SNAPSHOTS), List.of(SMALL_FILES, SNAPSHOTS),
                List.of(), List.of()));
    }

    static String history(String table) {
        return json(List.of(
                new TableGrade(table, Grade.C, 72, Grade.F, true, 1.0, "scan-3", 7L, NOW.minusSeconds(70),
                        NOW.minusSeconds(60), List.of(), List.of(), List.of(), List.of()),
                new TableGrade(table, Grade.F, 32, null, true, 1.0, "scan-2", 6L, NOW.minusSeconds(900),
                        NOW.minusSeconds(890), List.of(), List.of(), List.of(), List.of())));
    }

    static String scan(String table) {
        PartitionFieldInfo day = new PartitionFieldInfo("event_ts_day", "event_ts", 2, "timestamptz", "day");
        List<PartitionStats> partitions = List.of(
                new PartitionStats(0, List.of("20785"), 12, 120_000, 1200, 12, 120_000, 0, List.of(), 0, 0, 0, 0),
                new PartitionStats(0, List.of("20786"), 2, 900_000, 900, 0, 0, 0, List.of(), 0, 0, 0, 0));
        return json(new TableScanned(TableId.parse(table), "scan-1", NOW.minusSeconds(65), Duration.ofMillis(80), 2, 5L,
                5L, NOW.minusSeconds(66), "file:///warehouse/web/clicks", FileSizeTerms.forTarget(512L << 20),
                new TableTotals(2, 14, 1_020_000, 2100, 12, 120_000, 0, 0, 0, 0, 0),
                List.of(new PartitionSpecInfo(0, List.of(day))), partitions, null, null, null, null, null, null));
    }

    static String plan(String table) {
        FieldPredicate day = new FieldPredicate("event_ts_day", "event_ts", "timestamptz", "day", "20785",
                "2026-11-28T00:00:00Z", "2026-11-29T00:00:00Z", "2026-11-28");
        PlannedOperation optimize = new PlannedOperation(Operation.OPTIMIZE, List.of(Check.SMALL_FILES),
                List.of(new Chunk(0, List.of(new PartitionPredicate(0, List.of(day))), new Estimate(12, 120_000, 0, 1))),
                new OperationParameters(512L << 20, null, null, null), new Estimate(12, 120_000, 0, 1));
        MaintenancePlanned plan = new MaintenancePlanned("plan-7", TableId.parse(table), "scan-1", 5L,
                NOW.minusSeconds(60), NOW.minusSeconds(55), 72, Grade.C, 92, List.of(optimize), new Estimate(12, 120_000, 0, 1), null, null);
        return json(new CurrentPlan("plan-7", table, "PLANNED", NOW.minusSeconds(55), null, plan));
    }

    static String governed(String table, String engine, Pause pause) {
        return json(new GovernedTable(table, pause, "PT10M", List.of(), engine, List.of("lake.**"), null, null,
                List.of()));
    }

    static String policies(Policy... policies) {
        return json(List.of(policies));
    }

    static String jobs(ExecutorJob... jobs) {
        return json(List.of(jobs));
    }

    static ExecutorJob finishedJob(String jobId, String table) {
        return new ExecutorJob(jobId, "plan-7", table, "executor-1", 1, "finished", NOW.minusSeconds(50),
                NOW.minusSeconds(45), NOW.minusSeconds(40), "succeeded", null, null);
    }

    static String error(String code, String message) {
        return "{\"code\":\"" + code + "\",\"type\":\"USER\",\"message\":" + json(message) + "}";
    }

    private ServiceAnswers() {
    }
}
