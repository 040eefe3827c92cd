package dev.cryo.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cryo.cli.FakeCryo;
import dev.cryo.cli.FakeCryo.Answer;
import dev.cryo.cli.Samples;
import dev.cryo.cli.api.Service;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * "Fix now" against fakes that play the services' parts in order: the scan is asked for, a
 * grade arrives, a plan, a deferral, the job runs and finishes, and a new grade follows.
 */
class FixCommandTest {

    static final String GRADE_PATH = "/api/v1/tables/" + Samples.TABLE;

    FakeCryo cryo;
    final AtomicReference<Instant> scanAskedAt = new AtomicReference<>();
    final AtomicReference<Instant> jobFinishedAt = new AtomicReference<>();
    final AtomicInteger jobPolls = new AtomicInteger();

    @BeforeEach
    void start() throws Exception {
        cryo = new FakeCryo();
        cryo.route(Service.SCANNER, "POST", "/api/v1/scans", request -> {
            scanAskedAt.set(Instant.now());
            return new Answer(202, "{\"eventId\":\"change-1\",\"table\":\"" + Samples.TABLE + "\"}");
        });
        cryo.json(Service.GOVERNOR, "GET", "/api/v1/queue", """
                {"admitted":[],"deferred":[],"running":[{"jobId":"job-1","table":"%s","engine":"native","operation":"optimize",
                 "chunksDone":0,"chunksTotal":1}]}""".formatted(Samples.TABLE));
    }

    @AfterEach
    void stop() {
        cryo.close();
    }

    @Test
    void aFixIsFollowedFromScanToPlanToJobToABetterGrade() {
        scriptAFix();

        FakeCryo.Run run = cryo.run("fix", Samples.TABLE, "--poll-interval", "PT0.05S");

        assertThat(run.exit()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("asked for a scan of lakehouse.demo.page_views (event change-1), graded C 72 before",
                "graded C 72: small-files -20, snapshot-age -8",
                "planned plan-1: optimize (1 chunk), expire_snapshots, expected score 100",
                "waiting: no-slot — all 2 maintenance slots of engine native are in use",
                "job job-1 started (attempt 1)", "running optimize, 0 of 1 chunks done on native",
                "job job-1 succeeded in",
                "optimize chunk 0", "succeeded files 210 → 1, 1.3 MiB → 1.2 MiB, delete files 0 → 0",
                "new grade A 100 (was C 72): no findings");
        assertThat(cryo.requests(Service.SCANNER, "POST", "/api/v1/scans")).singleElement().satisfies(request -> {
            assertThat(request.authorization()).isEqualTo("Bearer fake-operator-token-000001");
            assertThat(request.body()).isEqualTo("{\"table\":\"lakehouse.demo.page_views\"}");
        });
    }

    @Test
    void jsonPrintsTheWholeStoryOnStdoutAndTheProgressOnStderr() throws Exception {
        scriptAFix();

        FakeCryo.Run run = cryo.run("fix", Samples.TABLE, "--poll-interval", "PT0.05S", "--json");

        JsonNode result = new ObjectMapper().readTree(run.out());
        assertThat(result.path("outcome").asText()).isEqualTo("fixed");
        assertThat(result.path("before").path("score").asInt()).isEqualTo(72);
        assertThat(result.path("graded").path("deductions")).hasSize(2);
        assertThat(result.path("plan").path("planId").asText()).isEqualTo("plan-1");
        assertThat(result.path("job").path("outcome").asText()).isEqualTo("succeeded");
        assertThat(result.path("operations")).hasSize(1);
        assertThat(result.path("after").path("score").asInt()).isEqualTo(100);
        assertThat(run.err()).contains("job job-1 succeeded");
    }

    @Test
    void aLastingDeferralStopsTheFollowingAndSaysWhyAndUntilWhen() {
        cryo.route(Service.SCORER, "GET", GRADE_PATH, request -> Answer.ok(Samples.grade(Samples.TABLE, "C", 72,
                Instant.now(), Samples.smallFiles())));
        cryo.route(Service.PLANNER, "GET", GRADE_PATH + "/plan", request -> Answer.ok(Samples.planView(
                Samples.plan(Instant.now(), "operator"))));
        cryo.json(Service.EXECUTOR, "GET", "/api/v1/jobs", "[]");
        cryo.json(Service.GOVERNOR, "GET", GRADE_PATH, """
                {"table":"%s","queued":[{"planId":"plan-1","table":"%s","score":72,"reason":"cooldown",
                 "message":"the last job finished 2 min ago; cooldown PT10M","retryAfter":"2026-11-30T12:08:00Z"}]}
                """.formatted(Samples.TABLE, Samples.TABLE));

        FakeCryo.Run run = cryo.run("fix", Samples.TABLE, "--poll-interval", "PT0.05S");

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.out()).contains("deferred: cooldown — the last job finished 2 min ago; cooldown PT10M, retry after 2026-11-30 12:08:00");
    }

    @Test
    void aTableThatTurnsOutHealthyNeedsNoPlan() {
        cryo.route(Service.SCORER, "GET", GRADE_PATH, request -> Answer.ok(Samples.grade(Samples.TABLE, "A", 100,
                scanAskedAt.get() == null ? Instant.now().minusSeconds(3600) : Instant.now())));

        FakeCryo.Run run = cryo.run("fix", Samples.TABLE, "--poll-interval", "PT0.05S");

        assertThat(run.exit()).isZero();
        assertThat(run.out()).contains("graded A 100: no findings", "nothing to fix: no check takes a point off lakehouse.demo.page_views");
        assertThat(cryo.requests(Service.PLANNER, "GET", GRADE_PATH + "/plan")).isEmpty();
    }

    @Test
    void withoutAnOperatorTokenNothingIsAskedAndTheMessageSaysWhereToGetOne() {
        cryo.route(Service.SCORER, "GET", GRADE_PATH, request -> Answer.ok(Samples.grade(Samples.TABLE, "C", 72, Instant.now())));

        FakeCryo.Run run = FakeCryo.run(cryo.endpoints(Optional.empty(), Optional.empty()), "fix", Samples.TABLE);

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("Cannot change anything without an operator token: set CRYO_TOKEN, or start Cryo with ./cryo demo");
        assertThat(cryo.requests(Service.SCANNER, "POST", "/api/v1/scans")).isEmpty();
    }

    @Test
    void noGradeWithinTheTimeoutIsAnErrorThatSaysWhereToLook() {
        cryo.route(Service.SCORER, "GET", GRADE_PATH, request -> Answer.ok(Samples.grade(Samples.TABLE, "C", 72,
                Instant.now().minusSeconds(3600))));

        FakeCryo.Run run = cryo.run("fix", Samples.TABLE, "--poll-interval", "PT0.05S", "--timeout", "PT0.5S");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("Cannot follow the fix of lakehouse.demo.page_views: no the grade of the new scan within PT0.5S");
    }

    /** The services' answers for a fix that works: C 72 → plan → no-slot → job → A 100. */
    private void scriptAFix() {
        cryo.route(Service.SCORER, "GET", GRADE_PATH, request -> {
            if (jobFinishedAt.get() != null) {
                return Answer.ok(Samples.grade(Samples.TABLE, "A", 100, Instant.now()));
            }
            Instant gradedAt = scanAskedAt.get() == null ? Instant.now().minusSeconds(3600) : Instant.now();
            return Answer.ok(Samples.grade(Samples.TABLE, "C", 72, gradedAt, Samples.smallFiles(), Samples.snapshotAge()));
        });
        cryo.route(Service.PLANNER, "GET", GRADE_PATH + "/plan", request -> Answer.ok(Samples.planView(
                Samples.plan(Instant.now(), "operator"))));
        cryo.json(Service.GOVERNOR, "GET", GRADE_PATH, """
                {"table":"%s","queued":[{"planId":"plan-1","table":"%s","score":72,"reason":"no-slot",
                 "message":"all 2 maintenance slots of engine native are in use","retryAfter":null}]}
                """.formatted(Samples.TABLE, Samples.TABLE));
        cryo.route(Service.EXECUTOR, "GET", "/api/v1/jobs", request -> {
            int poll = jobPolls.incrementAndGet();
            Instant started = scanAskedAt.get().plusMillis(10);
            if (poll == 1) {
                return Answer.ok("[]");
            }
            if (poll < 4) {
                return Answer.ok("[" + Samples.job("job-1", Samples.TABLE, started, null, null) + "]");
            }
            jobFinishedAt.compareAndSet(null, Instant.now());
            return Answer.ok("[" + Samples.job("job-0", "lakehouse.demo.other", started, started, "succeeded") + ","
                    + Samples.job("job-1", Samples.TABLE, started, jobFinishedAt.get(), "succeeded") + "]");
        });
        cryo.route(Service.AUDIT, "GET", "/api/v1/audit", request -> Answer.ok("""
                {"items":[{"id":7,"stage":"job","eventType":"dev.cryo.operation.finished.v1","payload":
                  {"jobId":"job-1","planId":"plan-1","table":"%s","operation":"optimize","chunkIndex":0,"engine":"native",
                   "status":"succeeded","before":{"dataFiles":210,"dataBytes":1400000,"deleteFiles":0,"records":8400},
                   "after":{"dataFiles":1,"dataBytes":1300000,"deleteFiles":0,"records":8400},"duration":"PT1.2S","retries":0,
                   "finishedAt":"%s"}}],"next":null}""".formatted(Samples.TABLE, Instant.now())));
    }
}
