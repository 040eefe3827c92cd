package dev.cryo.cli.command;

import dev.cryo.cli.FakeCryo;
import dev.cryo.cli.FakeCryo.Answer;
import dev.cryo.cli.Samples;
import dev.cryo.cli.api.Service;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class GovernorCommandsTest {

    FakeCryo cryo;

    @BeforeEach
    void start() throws Exception {
        cryo = new FakeCryo();
    }

    @AfterEach
    void stop() {
        cryo.close();
    }

    @Test
    void pauseSendsThePatternAndTheReasonAsTheOperator() {
        cryo.route(Service.GOVERNOR, "POST", "/api/v1/pauses", request -> new Answer(201, """
                {"id":"p-1","pattern":"lakehouse.demo.*","reason":"quarter close","pausedBy":"demo-operator","pausedAt":"2026-11-30T10:00:00Z",
                 "revokedJobs":["job-7"]}"""));

        FakeCryo.Run run = cryo.run("pause", "lakehouse.demo.*", "--reason", "quarter close");

        assertThat(run.exit()).isZero();
        assertThat(run.out()).contains("paused lakehouse.demo.* (pause p-1) by demo-operator", "quarter close",
                "revoked 1 job(s) holding these tables: job-7; each ends cancelled (TABLE_PAUSED) without starting, or before its next step",
                "resume with ./cryo resume lakehouse.demo.*");
        assertThat(cryo.requests(Service.GOVERNOR, "POST", "/api/v1/pauses")).singleElement().satisfies(request -> {
            assertThat(request.body()).contains("\"pattern\":\"lakehouse.demo.*\"", "\"reason\":\"quarter close\"");
            assertThat(request.authorization()).isEqualTo("Bearer fake-operator-token-000001");
        });
    }

    @Test
    void resumeRemovesThePausesWrittenExactlySo() {
        cryo.json(Service.GOVERNOR, "GET", "/api/v1/pauses", """
                [{"id":"p-1","pattern":"lakehouse.demo.*","reason":"r","pausedBy":"o","pausedAt":"2026-11-30T10:00:00Z"},
                 {"id":"p-2","pattern":"lakehouse.other.*","reason":"r","pausedBy":"o","pausedAt":"2026-11-30T10:00:00Z"}]""");
        cryo.route(Service.GOVERNOR, "DELETE", "/api/v1/pauses/p-1", request -> new Answer(204, ""));

        FakeCryo.Run run = cryo.run("resume", "lakehouse.demo.*");

        assertThat(run.exit()).isZero();
        assertThat(run.out()).contains("resumed lakehouse.demo.* (pause p-1");
        assertThat(cryo.requests(Service.GOVERNOR, "DELETE", "/api/v1/pauses/p-1")).hasSize(1);
        assertThat(cryo.requests(Service.GOVERNOR, "DELETE", "/api/v1/pauses/p-2")).isEmpty();
    }

    @Test
    void resumingATablePausedByABroaderPatternNamesThatPattern() {
        cryo.json(Service.GOVERNOR, "GET", "/api/v1/pauses",
                "[{\"id\":\"p-1\",\"pattern\":\"lakehouse.**\",\"reason\":\"freeze\",\"pausedBy\":\"o\",\"pausedAt\":\"2026-11-30T10:00:00Z\"}]");
        cryo.json(Service.GOVERNOR, "GET", "/api/v1/tables/" + Samples.TABLE, """
                {"table":"%s","pausedBy":{"id":"p-1","pattern":"lakehouse.**","reason":"freeze"}}""".formatted(Samples.TABLE));

        FakeCryo.Run run = cryo.run("resume", Samples.TABLE);

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("Cannot resume lakehouse.demo.page_views alone: it is paused by pattern lakehouse.**"
                + " (pause p-1, freeze); resume that pattern with ./cryo resume 'lakehouse.**'");
    }

    @Test
    void resumingATableThatFailingJobsBlockedLetsItsNextPlanRun() {
        cryo.json(Service.GOVERNOR, "GET", "/api/v1/pauses", "[]");
        cryo.json(Service.GOVERNOR, "GET", "/api/v1/tables/" + Samples.TABLE, """
                {"table":"%s","failures":{"failures":3,"maxAttempts":3,"blocked":true,"errorCode":"NOT_ROUTABLE",
                 "message":"Cannot run optimize:0","lastFailedAt":"2026-11-30T10:00:00Z"}}""".formatted(Samples.TABLE));
        cryo.route(Service.GOVERNOR, "POST", "/api/v1/tables/" + Samples.TABLE + "/resume", request -> new Answer(204, ""));

        FakeCryo.Run run = cryo.run("resume", Samples.TABLE);

        assertThat(run.exit()).isZero();
        assertThat(run.out()).contains("resumed lakehouse.demo.page_views: its last 3 jobs failed with NOT_ROUTABLE"
                + " (Cannot run optimize:0) and blocked it; they no longer count, its next plan runs");
        assertThat(cryo.requests(Service.GOVERNOR, "POST", "/api/v1/tables/" + Samples.TABLE + "/resume"))
                .singleElement().satisfies(request -> assertThat(request.authorization())
                        .isEqualTo("Bearer fake-operator-token-000001"));
    }

    @Test
    void jobsShowsTheQueueTheEnginesAndRecentJobsAndExitsOneWhenOneFailed() {
        Instant now = Instant.now();
        cryo.json(Service.GOVERNOR, "GET", "/api/v1/queue", """
                {"running":[{"jobId":"job-2","table":"lakehouse.demo.trips","engine":"native","operation":"optimize","chunksDone":1,
                  "chunksTotal":3,"startedAt":"%s","lastHeartbeatAt":"%s","attempt":1}],
                 "admitted":[],
                 "deferred":[{"planId":"p","table":"lakehouse.demo.orders","score":80,"reason":"cooldown","message":"cooling down",
                  "retryAfter":"2026-11-30T12:00:00Z","engine":"native"}]}""".formatted(now, now));
        cryo.json(Service.GOVERNOR, "GET", "/api/v1/engines",
                "[{\"engine\":\"native\",\"slots\":2,\"slotsInUse\":1,\"maxForeignQueries\":10,\"lastLoad\":null}]");
        cryo.json(Service.EXECUTOR, "GET", "/api/v1/jobs", "[" + Samples.job("job-1", Samples.TABLE, now.minusSeconds(60),
                now.minusSeconds(50), "failed") + "]");

        FakeCryo.Run run = cryo.run("jobs");

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.out()).contains("Running", "job-2", "1/3 chunks", "Waiting", "lakehouse.demo.orders", "cooldown",
                "2026-11-30 12:00:00", "Engines", "native  2      1", "Recent jobs", "job-1", "failed", "10.0 s");
    }

    @Test
    void auditFiltersBySinceAndTableAndShortensEventTypes() {
        cryo.json(Service.AUDIT, "GET", "/api/v1/audit", """
                {"items":[{"id":1,"eventTime":"2026-11-30T10:00:00Z","stage":"result","table":"%s",
                  "eventType":"dev.cryo.job.finished.v1","status":"succeeded","actor":"demo-operator","detail":"job-1 succeeded"}],
                 "next":null}""".formatted(Samples.TABLE));

        FakeCryo.Run run = cryo.run("audit", "--table", Samples.TABLE, "--since", "2h");

        assertThat(run.exit()).isZero();
        assertThat(run.out()).contains("2026-11-30 10:00:00", "result", "job.finished", "succeeded", "demo-operator", "job-1 succeeded");
        String query = cryo.requests(Service.AUDIT, "GET", "/api/v1/audit").get(0).query();
        assertThat(query).contains("table=lakehouse.demo.page_views", "from=", "limit=50");
        Instant from = Instant.parse(java.net.URLDecoder.decode(query.replaceAll(".*from=([^&]*).*", "$1"),
                java.nio.charset.StandardCharsets.UTF_8));
        assertThat(from).isBetween(Instant.now().minusSeconds(7300), Instant.now().minusSeconds(7100));
    }

    @Test
    void replayPublishFollowsTheRunUntilItSucceeds() {
        java.util.concurrent.atomic.AtomicInteger polls = new java.util.concurrent.atomic.AtomicInteger();
        cryo.route(Service.AUDIT, "POST", "/api/v1/audit/replays/publish", request -> new Answer(202,
                "{\"id\":\"11111111-1111-1111-1111-111111111111\",\"kind\":\"publish\",\"state\":\"queued\",\"recordsDone\":0}"));
        cryo.route(Service.AUDIT, "GET", "/api/v1/audit/replays/11111111-1111-1111-1111-111111111111", request ->
                Answer.ok(polls.incrementAndGet() < 3
                        ? "{\"id\":\"11111111-1111-1111-1111-111111111111\",\"kind\":\"publish\",\"state\":\"running\",\"recordsTotal\":40,\"recordsDone\":"
                        + polls.get() * 10 + "}"
                        : "{\"id\":\"11111111-1111-1111-1111-111111111111\",\"kind\":\"publish\",\"state\":\"succeeded\",\"recordsTotal\":40,"
                        + "\"recordsDone\":40,\"result\":{\"published\":40}}"));

        FakeCryo.Run run = cryo.run("replay", "publish", "--since", "1h", "--table", Samples.TABLE, "--poll-interval", "PT0.02S");

        assertThat(run.exit()).isZero();
        assertThat(run.out()).contains("replay 11111111-1111-1111-1111-111111111111 (publish) queued", "running, 10/40 records",
                "running, 20/40 records", "succeeded, 40/40 records", "result: {\"published\":40}");
        assertThat(cryo.requests(Service.AUDIT, "POST", "/api/v1/audit/replays/publish")).singleElement()
                .satisfies(request -> assertThat(request.body()).contains("\"from\":", "\"to\":", "\"table\":\"lakehouse.demo.page_views\""));
    }
}
