package dev.cryo.cli;

import dev.cryo.contracts.Check;
import dev.cryo.contracts.Grade;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.Chunk;
import dev.cryo.contracts.event.Estimate;
import dev.cryo.contracts.event.FieldPredicate;
import dev.cryo.contracts.event.JobOutcome;
import dev.cryo.contracts.event.JobScored;
import dev.cryo.contracts.event.MaintenancePlanned;
import dev.cryo.contracts.event.OperationParameters;
import dev.cryo.contracts.event.PartitionPredicate;
import dev.cryo.contracts.event.PlannedOperation;
import dev.cryo.contracts.json.EventJson;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/** Answers shaped as the services give them (scorer TableGradeView, planner PlanView, ...). */
public final class Samples {

    public static final String TABLE = "lakehouse.demo.page_views";

    /** A grading of the event flow's chain "change-0" (not one an operator asked for). */
    public static String grade(String table, String grade, int score, Instant gradedAt, String... deductions) {
        return gradeIn("change-0", table, grade, score, gradedAt, deductions);
    }

    /** A grading of the chain that table change {@code correlationId} began (a fix now's scan request id). */
    public static String gradeIn(String correlationId, String table, String grade, int score, Instant gradedAt,
                                 String... deductions) {
        return """
                {"table":"%s","grade":"%s","score":%d,"previousGrade":null,"gradeChanged":false,"sizeScale":1.0,
                 "scanId":"scan-%d","snapshotId":42,"scannedAt":"%s","gradedAt":"%s",
                 "fixes":[%s],"deductions":[%s],
                 "notEvaluated":[{"check":"missing-statistics","reason":"the table holds 2.0 MiB; statistics are expected from 1 GiB"}],
                 "correlationId":"%s","requestedBy":null}
                """.formatted(table, grade, score, gradedAt.toEpochMilli(), gradedAt.minusMillis(300), gradedAt,
                deductions.length == 0 ? "" : "\"optimize\",\"expire_snapshots\"", String.join(",", deductions),
                correlationId);
    }

    public static String smallFiles() {
        return """
                {"check":"small-files","severity":"CRITICAL","points":20,"measured":1.0,"limit":0.5,"unit":"share","fix":"optimize",
                 "explanation":"100.0 % of data files are under 512 KiB (limit 50 %)"}""";
    }

    public static String snapshotAge() {
        return """
                {"check":"snapshot-age","severity":"WARNING","points":8,"measured":1728000,"limit":604800,"unit":"seconds",
                 "fix":"expire_snapshots","explanation":"the oldest snapshot is 20 days old (limit 7 days)"}""";
    }

    public static MaintenancePlanned plan(Instant plannedAt, String actor) {
        return plan("plan-1", plannedAt, actor);
    }

    public static MaintenancePlanned plan(String planId, Instant plannedAt, String actor) {
        FieldPredicate day = new FieldPredicate("event_ts_day", "event_ts", "timestamptz", "day", "20785",
                "2026-11-28T00:00:00Z", "2026-11-29T00:00:00Z", "2026-11-28");
        Chunk chunk = new Chunk(0, List.of(new PartitionPredicate(0, List.of(day))), new Estimate(210, 1_400_000, 0, 1));
        PlannedOperation optimize = new PlannedOperation(Operation.OPTIMIZE, List.of(Check.SMALL_FILES), List.of(chunk),
                new OperationParameters(2_097_152L, null, null, null), chunk.estimate());
        PlannedOperation expire = new PlannedOperation(Operation.EXPIRE_SNAPSHOTS, List.of(Check.SNAPSHOT_AGE), List.of(),
                new OperationParameters(null, Duration.ofDays(7), 10, null), Estimate.ZERO);
        return new MaintenancePlanned(planId, TableId.parse(TABLE), "scan-1", 42L, plannedAt.minusSeconds(5), plannedAt, 72, Grade.C, 100,
                List.of(optimize, expire), chunk.estimate(), null, actor);
    }

    public static String planView(MaintenancePlanned plan) {
        return planView(plan, "PLANNED", null, "change-0");
    }

    /** The planner's PlanView of {@code plan}, made in the chain {@code correlationId}. */
    public static String planView(MaintenancePlanned plan, String status, String supersededBy, String correlationId) {
        return """
                {"planId":"%s","table":"%s","status":"%s","statusChangedAt":"%s","supersededByPlanId":%s,"plan":%s,
                 "correlationId":"%s"}
                """.formatted(plan.planId(), plan.table(), status, plan.plannedAt(),
                supersededBy == null ? "null" : "\"" + supersededBy + "\"",
                new String(EventJson.write(plan), StandardCharsets.UTF_8), correlationId);
    }

    /** The planner's plan history of a table: one line per (planId, correlationId) pair, newest first. */
    public static String planHistory(String table, String... planAndCorrelationIds) {
        StringBuilder plans = new StringBuilder();
        for (int i = 0; i < planAndCorrelationIds.length; i += 2) {
            plans.append(i == 0 ? "" : ",").append("""
                    {"planId":"%s","status":"PLANNED","plannedAt":"2026-11-30T12:00:00Z","scanId":"scan-1","score":72,
                     "grade":"C","expectedScore":100,"operations":["optimize"],"correlationId":"%s"}"""
                    .formatted(planAndCorrelationIds[i], planAndCorrelationIds[i + 1]));
        }
        return "{\"table\":\"" + table + "\",\"plans\":[" + plans + "]}";
    }

    public static String job(String jobId, String table, Instant startedAt, Instant finishedAt, String outcome) {
        return job(jobId, "plan-1", table, startedAt, finishedAt, outcome);
    }

    public static String job(String jobId, String planId, String table, Instant startedAt, Instant finishedAt,
                             String outcome) {
        return """
                {"jobId":"%s","planId":"%s","table":"%s","owner":"executor-1","attempt":1,"state":"%s",
                 "startedAt":"%s","heartbeatAt":"%s","finishedAt":%s,"outcome":%s,"errorCode":null,"message":null}
                """.formatted(jobId, planId, table, finishedAt == null ? "running" : "finished", startedAt, startedAt,
                finishedAt == null ? "null" : "\"" + finishedAt + "\"",
                outcome == null ? "null" : "\"" + outcome.toLowerCase(Locale.ROOT) + "\"");
    }

    /**
     * The planner's score of a job that succeeded, against a grade of {@code actual} with no
     * deduction left (JobScored, as GET /api/v1/jobs/{jobId}/score answers it).
     */
    public static String jobScore(String jobId, String planId, String table, int before, int expected, int actual) {
        int difference = actual - expected;
        String message = "score " + before + " → " + actual + " (" + Grade.of(actual) + "), expected " + expected + ": "
                + (difference == 0 ? "reached" : difference > 0 ? difference + " points above" : -difference + " points short");
        return new String(EventJson.write(new JobScored(jobId, planId, TableId.parse(table), JobOutcome.SUCCEEDED, before,
                expected, actual, Grade.of(actual), "scan-after-" + jobId, List.of(), false, List.of(), message,
                Instant.now())), StandardCharsets.UTF_8);
    }

    private Samples() {
    }
}
