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
 * grade arrives, a plan, a deferral, the job runs and finishes, and a new grade follows. The
 * command follows its own request (the grading, plan and job of the chain its scan request
 * began), never the event flow's work on the same table.
 */
class FixCommandTest {

    static final String GRADE_PATH = "/api/v1/tables/" + Samples.TABLE;
    /** The event id the fake scanner answers the scan request with: the fix's chain. */
    static final String REQUEST = "change-1";

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
                "promise kept: score 72 → 100 (A), expected 100: reached",
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
        assertThat(result.path("score").path("expectedScore").asInt()).isEqualTo(100);
        assertThat(result.path("score").path("actualScore").asInt()).isEqualTo(100);
        assertThat(run.err()).contains("job job-1 succeeded");
    }

    @Test
    void aLastingDeferralStopsTheFollowingAndSaysWhyAndUntilWhen() {
        cryo.route(Service.SCORER, "GET", GRADE_PATH, request -> Answer.ok(Samples.gradeIn(REQUEST, Samples.TABLE, "C", 72, Instant.now(), Samples.smallFiles())));
        plannerAnswersThePlan("plan-1");
        cryo.json(Service.EXECUTOR, "GET", "/api/v1/jobs", "[]");
        cryo.json(Service.GOVERNOR, "GET", GRADE_PATH, """
                {"table":"%s","queued":[{"planId":"plan-1","table":"%s","score":72,"reason":"paused",
                 "message":"table %s is paused by pattern 'lakehouse.demo.*'","retryAfter":null}]}
                """.formatted(Samples.TABLE, Samples.TABLE, Samples.TABLE));

        FakeCryo.Run run = cryo.run("fix", Samples.TABLE, "--poll-interval", "PT0.05S");

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.out()).contains("deferred: paused — table lakehouse.demo.page_views is paused by pattern 'lakehouse.demo.*'");
    }

    /**
     * What CI once saw: the watcher's scan of the writer's last commit was graded and planned just
     * after the request, and the governor deferred that plan for the cooldown. The fix is not that
     * plan: it waits for its own grading and plan, which the governor admits (cooldown waived).
     */
    @Test
    void theEventFlowsGradeAndPlanOfTheSameMomentAreNotTheFixs() {
        AtomicInteger gradePolls = new AtomicInteger();
        cryo.route(Service.SCORER, "GET", GRADE_PATH, request -> {
            if (scanAskedAt.get() == null) {
                return Answer.ok(Samples.gradeIn("change-0", Samples.TABLE, "B", 80, Instant.now().minusSeconds(30)));
            }
            if (jobFinishedAt.get() != null) {
                return Answer.ok(Samples.gradeIn("change-9", Samples.TABLE, "A", 100, Instant.now()));
            }
            // the event flow's grading first; the fix's own from the third poll on
            return Answer.ok(gradePolls.incrementAndGet() < 3
                    ? Samples.gradeIn("change-7", Samples.TABLE, "B", 80, Instant.now(), Samples.smallFiles())
                    : Samples.gradeIn(REQUEST, Samples.TABLE, "B", 80, Instant.now(), Samples.smallFiles()));
        });
        cryo.json(Service.SCORER, "GET", GRADE_PATH + "/history", "[" + Samples.gradeIn("change-7", Samples.TABLE, "B", 80, Instant.now(), Samples.smallFiles()) + "]");
        cryo.route(Service.PLANNER, "GET", GRADE_PATH + "/plans", request -> Answer.ok(gradePolls.get() < 3
                ? Samples.planHistory(Samples.TABLE, "plan-7", "change-7")
                : Samples.planHistory(Samples.TABLE, "plan-1", REQUEST, "plan-7", "change-7")));
        cryo.json(Service.PLANNER, "GET", "/api/v1/plans/plan-1", Samples.planView(Samples.plan(Instant.now(), "operator"),
                "PLANNED", null, REQUEST));
        cryo.json(Service.GOVERNOR, "GET", GRADE_PATH, """
                {"table":"%s","queued":[{"planId":"plan-7","table":"%s","score":80,"reason":"cooldown",
                 "message":"the last job finished 4 s ago; cooldown PT1H","retryAfter":"2026-11-30T15:41:36Z"},
                 {"planId":"plan-1","table":"%s","score":80,"reason":null,"message":null,"retryAfter":null}]}
                """.formatted(Samples.TABLE, Samples.TABLE, Samples.TABLE));
        cryo.route(Service.EXECUTOR, "GET", "/api/v1/jobs", request -> {
            if (jobPolls.incrementAndGet() < 3) {
                return Answer.ok("[]");
            }
            Instant started = scanAskedAt.get().plusMillis(10);
            jobFinishedAt.compareAndSet(null, Instant.now());
            return Answer.ok("[" + Samples.job("job-1", "plan-1", Samples.TABLE, started, jobFinishedAt.get(), "succeeded")
                    + "]");
        });
        cryo.json(Service.AUDIT, "GET", "/api/v1/audit", "{\"items\":[],\"next\":null}");
        plannerScores("job-1", "plan-1", 80, 100, 100);

        FakeCryo.Run run = cryo.run("fix", Samples.TABLE, "--poll-interval", "PT0.05S");

        assertThat(run.exit()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("planned plan-1:", "queued at the governor", "job job-1 succeeded",
                "new grade A 100 (was B 80)");
        assertThat(run.out()).doesNotContain("plan-7", "cooldown");
    }

    @Test
    void aPlanReplacedBeforeItStartsIsFollowedToTheNewerOne() throws Exception {
        cryo.route(Service.SCORER, "GET", GRADE_PATH, request -> Answer.ok(jobFinishedAt.get() != null
                ? Samples.gradeIn("change-2", Samples.TABLE, "A", 100, Instant.now())
                : Samples.gradeIn(REQUEST, Samples.TABLE, "C", 72, Instant.now(), Samples.smallFiles())));
        plannerAnswersThePlan("plan-1");
        cryo.json(Service.PLANNER, "GET", "/api/v1/plans/plan-1", Samples.planView(Samples.plan(Instant.now(), "operator"),
                "SUPERSEDED", "plan-2", REQUEST));
        cryo.json(Service.GOVERNOR, "GET", GRADE_PATH, """
                {"table":"%s","queued":[{"planId":"plan-2","table":"%s","score":70,"reason":"no-slot",
                 "message":"all 2 maintenance slots of engine native are in use","retryAfter":null}]}
                """.formatted(Samples.TABLE, Samples.TABLE));
        cryo.route(Service.EXECUTOR, "GET", "/api/v1/jobs", request -> {
            if (jobPolls.incrementAndGet() < 4) {
                return Answer.ok("[]");
            }
            Instant started = scanAskedAt.get().plusMillis(10);
            jobFinishedAt.compareAndSet(null, Instant.now());
            return Answer.ok("[" + Samples.job("job-2", "plan-2", Samples.TABLE, started, jobFinishedAt.get(), "succeeded")
                    + "]");
        });
        plannerScores("job-2", "plan-2", 70, 100, 100);
        cryo.json(Service.AUDIT, "GET", "/api/v1/audit", "{\"items\":[],\"next\":null}");

        FakeCryo.Run run = cryo.run("fix", Samples.TABLE, "--poll-interval", "PT0.05S", "--json");

        assertThat(run.exit()).as(run.out() + run.err()).isZero();
        assertThat(run.err()).contains("plan plan-1 was replaced by newer plan plan-2 before it started (the table changed "
                + "again); following that one", "waiting: no-slot", "job job-2 succeeded");
        assertThat(new ObjectMapper().readTree(run.out()).path("supersededBy").asText()).isEqualTo("plan-2");
    }

    /**
     * The fix's plan waits for the lock of an automatic job that started just before it; when that job
     * commits, the governor drops the fix's plan as made from a stale snapshot. The fix ends with the
     * automatic job's outcome and the grade after it, instead of waiting for a job that never comes.
     */
    @Test
    void aFixDuringARunningAutomaticJobEndsWithThatJobsOutcome() {
        AtomicInteger governorPolls = new AtomicInteger();
        cryo.route(Service.SCORER, "GET", GRADE_PATH, request -> Answer.ok(jobFinishedAt.get() != null
                ? Samples.gradeIn("change-2", Samples.TABLE, "A", 92, Instant.now())
                : Samples.gradeIn(REQUEST, Samples.TABLE, "C", 72, Instant.now(), Samples.smallFiles())));
        plannerAnswersThePlan("plan-1");
        cryo.route(Service.GOVERNOR, "GET", GRADE_PATH, request -> Answer.ok(governorPolls.incrementAndGet() < 3 ? """
                {"table":"%s","lock":{"table":"%s","jobId":"job-auto","planId":"plan-auto"},
                 "queued":[{"planId":"plan-1","table":"%s","score":72,"reason":"locked",
                 "message":"job job-auto (plan plan-auto) holds the table","retryAfter":null}]}
                """.formatted(Samples.TABLE, Samples.TABLE, Samples.TABLE) : """
                {"table":"%s","queued":[]}""".formatted(Samples.TABLE)));
        cryo.json(Service.GOVERNOR, "GET", "/api/v1/plans/plan-1", """
                {"planId":"plan-1","table":"%s","stage":"superseded","reason":"superseded",
                 "message":"made from a scan older than the commit of job job-auto","decidedAt":"%s"}
                """.formatted(Samples.TABLE, Instant.now()));
        cryo.json(Service.EXECUTOR, "GET", "/api/v1/jobs", "[]");
        executorFinishesTheAutomaticJob(() -> scanAskedAt.get().minusSeconds(5));
        cryo.json(Service.AUDIT, "GET", "/api/v1/audit", "{\"items\":[],\"next\":null}");
        plannerScores("job-auto", "plan-auto", 72, 100, 92);

        FakeCryo.Run run = cryo.run("fix", Samples.TABLE, "--poll-interval", "PT0.05S");

        assertThat(run.exit()).as(run.out() + run.err()).isEqualTo(0);
        assertThat(run.out()).contains("waiting: locked — job job-auto (plan plan-auto) holds the table",
                "plan plan-1 was dropped by the governor: made from a scan older than the commit of job job-auto; the fix"
                        + " ends with the job that held the table, job-auto",
                "job job-auto succeeded", "promise missed: score 72 → 92 (A), expected 100: 8 points short",
                "new grade A 92 (was C 72)");
    }

    /**
     * The automatic job started and committed between two of the fix's polls, so the fix never saw
     * its lock: when the governor drops the fix's plan as stale, the fix finds the job that ran on
     * the table since it was asked for and ends with that job's outcome.
     */
    @Test
    void aFixEndsWithTheOutcomeOfAnAutomaticJobThatCommittedBetweenTwoPolls() {
        cryo.route(Service.SCORER, "GET", GRADE_PATH, request -> Answer.ok(jobFinishedAt.get() != null
                ? Samples.gradeIn("change-2", Samples.TABLE, "A", 100, Instant.now())
                : Samples.gradeIn(REQUEST, Samples.TABLE, "C", 72, Instant.now(), Samples.smallFiles())));
        plannerAnswersThePlan("plan-1");
        cryo.json(Service.GOVERNOR, "GET", GRADE_PATH, "{\"table\":\"%s\",\"queued\":[]}".formatted(Samples.TABLE));
        cryo.json(Service.GOVERNOR, "GET", "/api/v1/plans/plan-1", """
                {"planId":"plan-1","table":"%s","stage":"superseded","reason":"superseded",
                 "message":"plan plan-1 was made from a scan that began before job job-auto committed","decidedAt":"%s"}
                """.formatted(Samples.TABLE, Instant.now()));
        cryo.route(Service.EXECUTOR, "GET", "/api/v1/jobs", request -> {
            Instant started = scanAskedAt.get().minusMillis(200);
            jobFinishedAt.compareAndSet(null, Instant.now());
            return Answer.ok("[" + Samples.job("job-old", "plan-0", Samples.TABLE, started.minusSeconds(3600),
                    started.minusSeconds(3590), "succeeded") + ","
                    + Samples.job("job-auto", "plan-auto", Samples.TABLE, started, jobFinishedAt.get(), "succeeded") + "]");
        });
        executorFinishesTheAutomaticJob(() -> scanAskedAt.get().minusMillis(200));
        cryo.json(Service.AUDIT, "GET", "/api/v1/audit", "{\"items\":[],\"next\":null}");
        plannerScores("job-auto", "plan-auto", 72, 100, 100);

        FakeCryo.Run run = cryo.run("fix", Samples.TABLE, "--poll-interval", "PT0.05S");

        assertThat(run.exit()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("plan plan-1 was dropped by the governor: plan plan-1 was made from a scan that began"
                        + " before job job-auto committed; the fix ends with the job that held the table, job-auto",
                "job job-auto succeeded", "promise kept", "new grade A 100 (was C 72)");
        assertThat(run.out()).doesNotContain("job-old", "nothing runs for this fix");
    }

    /**
     * A job holds the table as the fix is asked for and commits before the fix's scan: the scan
     * finds nothing to do, and the fix ends with that job's outcome and score instead of a bare
     * "nothing to fix".
     */
    @Test
    void aFixAskedWhileAJobHoldsTheTableEndsWithThatJobsOutcomeWhenItLeavesNothingToDo() {
        Instant jobStarted = Instant.now().minusSeconds(2);
        cryo.route(Service.SCORER, "GET", GRADE_PATH, request -> Answer.ok(scanAskedAt.get() == null
                ? Samples.grade(Samples.TABLE, "B", 80, Instant.now().minusSeconds(60), Samples.smallFiles())
                : Samples.gradeIn(REQUEST, Samples.TABLE, "A", 100, Instant.now())));
        cryo.json(Service.GOVERNOR, "GET", GRADE_PATH, """
                {"table":"%s","lock":{"table":"%s","jobId":"job-auto","planId":"plan-auto"},"queued":[]}
                """.formatted(Samples.TABLE, Samples.TABLE));
        executorFinishesTheAutomaticJob(() -> jobStarted);
        cryo.json(Service.AUDIT, "GET", "/api/v1/audit", "{\"items\":[],\"next\":null}");
        plannerScores("job-auto", "plan-auto", 80, 100, 100);

        FakeCryo.Run run = cryo.run("fix", Samples.TABLE, "--poll-interval", "PT0.05S");

        assertThat(run.exit()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("job job-auto (plan plan-auto) holds the table",
                "graded A 100: no findings",
                "nothing left to fix: job job-auto was running on lakehouse.demo.page_views when the fix was asked for",
                "job job-auto succeeded", "promise kept", "new grade A 100 (was B 80)");
        assertThat(cryo.requests(Service.PLANNER, "GET", GRADE_PATH + "/plans")).isEmpty();
    }

    @Test
    void aTableThatTurnsOutHealthyNeedsNoPlan() {
        cryo.route(Service.SCORER, "GET", GRADE_PATH, request -> Answer.ok(scanAskedAt.get() == null
                ? Samples.grade(Samples.TABLE, "B", 80, Instant.now().minusSeconds(3600), Samples.smallFiles())
                : Samples.gradeIn(REQUEST, Samples.TABLE, "A", 100, Instant.now())));

        FakeCryo.Run run = cryo.run("fix", Samples.TABLE, "--poll-interval", "PT0.05S");

        assertThat(run.exit()).isZero();
        assertThat(run.out()).contains("graded A 100: no findings", "nothing to fix: no check takes a point off lakehouse.demo.page_views");
        assertThat(cryo.requests(Service.PLANNER, "GET", GRADE_PATH + "/plans")).isEmpty();
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
    void noGradeOfItsOwnScanWithinTheTimeoutIsAnErrorThatSaysWhereToLook() {
        // graded meanwhile, but by the event flow: not the scan the fix asked for
        cryo.route(Service.SCORER, "GET", GRADE_PATH, request -> Answer.ok(Samples.gradeIn("change-7", Samples.TABLE, "C", 72, Instant.now(), Samples.smallFiles())));
        cryo.json(Service.SCORER, "GET", GRADE_PATH + "/history", "[]");

        FakeCryo.Run run = cryo.run("fix", Samples.TABLE, "--poll-interval", "PT0.05S", "--timeout", "PT0.5S");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("Cannot follow the fix of lakehouse.demo.page_views: no grade of the scan asked for "
                + "(event change-1) within PT0.5S");
    }

    /** The executor's record of the event flow's job-auto: finished (succeeded) from the first time it is asked for. */
    private void executorFinishesTheAutomaticJob(java.util.function.Supplier<Instant> startedAt) {
        cryo.route(Service.EXECUTOR, "GET", "/api/v1/jobs/job-auto", request -> {
            jobFinishedAt.compareAndSet(null, Instant.now());
            return Answer.ok("{\"job\":" + Samples.job("job-auto", "plan-auto", Samples.TABLE, startedAt.get(),
                    jobFinishedAt.get(), "succeeded") + ",\"steps\":[]}");
        });
    }

    /** The planner's score of a job: 404 until the job has finished, then the score. */
    private void plannerScores(String jobId, String planId, int before, int expected, int actual) {
        cryo.route(Service.PLANNER, "GET", "/api/v1/jobs/" + jobId + "/score", request -> jobFinishedAt.get() == null
                ? new Answer(404, "{\"code\":\"JOB_NOT_SCORED\",\"message\":\"Job " + jobId + " has no score\"}")
                : Answer.ok(Samples.jobScore(jobId, planId, Samples.TABLE, before, expected, actual)));
    }

    private void plannerAnswersThePlan(String planId) {
        cryo.json(Service.PLANNER, "GET", GRADE_PATH + "/plans", Samples.planHistory(Samples.TABLE, planId, REQUEST));
        cryo.json(Service.PLANNER, "GET", "/api/v1/plans/" + planId, Samples.planView(
                Samples.plan(planId, Instant.now(), "operator"), "PLANNED", null, REQUEST));
    }

    /** The services' answers for a fix that works: C 72 → plan → no-slot → job → A 100. */
    private void scriptAFix() {
        cryo.route(Service.SCORER, "GET", GRADE_PATH, request -> {
            if (jobFinishedAt.get() != null) {
                return Answer.ok(Samples.gradeIn("change-2", Samples.TABLE, "A", 100, Instant.now()));
            }
            if (scanAskedAt.get() == null) {
                return Answer.ok(Samples.grade(Samples.TABLE, "C", 72, Instant.now().minusSeconds(3600),
                        Samples.smallFiles(), Samples.snapshotAge()));
            }
            return Answer.ok(Samples.gradeIn(REQUEST, Samples.TABLE, "C", 72, Instant.now(), Samples.smallFiles(),
                    Samples.snapshotAge()));
        });
        plannerAnswersThePlan("plan-1");
        plannerScores("job-1", "plan-1", 72, 100, 100);
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
            return Answer.ok("[" + Samples.job("job-0", "plan-0", "lakehouse.demo.other", started, started, "succeeded") + ","
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
