package dev.cryo.cli.command;

import dev.cryo.cli.FakeCryo;
import dev.cryo.cli.FakeCryo.Answer;
import dev.cryo.cli.api.Service;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class DlqCommandTest {

    static final String PAGE = """
            {"topic":"cryo.dlq.scorer.v1","deadLetters":[
             {"id":"0-7","key":"lake.sales.orders","eventId":"e-7","eventType":"dev.cryo.table.scanned.v1",
              "originalTopic":"cryo.table-scanned.v1","originalPartition":2,"originalOffset":41,
              "reason":"Cannot grade lake.sales.orders: policy 'strict' is unknown","deadLetteredAt":"2026-11-30T09:00:00Z",
              "valueBytes":1200},
             {"id":"0-3","key":"lake.sales.items","eventId":"e-3","eventType":"dev.cryo.table.scanned.v1",
              "originalTopic":"cryo.table-scanned.v1","originalPartition":1,"originalOffset":12,
              "reason":"Cannot read record","deadLetteredAt":"2026-11-30T08:00:00Z","valueBytes":10,
              "redrivenBy":"operator:alice","redrivenAt":"2026-11-30T08:30:00Z","redrivenTo":"cryo.table-scanned.v1/1/13"}]}""";

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
    void listShowsWhatWaitsAndWhatWasRedrivenAndReportsWaitingLettersAsFindings() {
        cryo.json(Service.SCORER, "GET", "/api/v1/dead-letters", PAGE);

        FakeCryo.Run run = cryo.run("dlq", "list", "scorer");

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.out()).contains("0-7", "lake.sales.orders", "waiting", "policy 'strict' is unknown",
                "0-3", "re-driven by operator:alice",
                "1 waiting in cryo.dlq.scorer.v1; re-drive with ./cryo dlq redrive scorer --id <ID>");
        assertThat(cryo.requests(Service.SCORER, "GET", "/api/v1/dead-letters")).singleElement()
                .satisfies(request -> assertThat(request.query()).isEqualTo("limit=100"));
    }

    @Test
    void redriveSendsTheIdsAsTheOperator() {
        cryo.route(Service.SCORER, "POST", "/api/v1/dead-letters/redrive", request -> Answer.ok("""
                [{"id":"0-7","outcome":"redriven","target":"cryo.table-scanned.v1/2/99","message":"re-driven to cryo.table-scanned.v1/2/99"}]"""));

        FakeCryo.Run run = cryo.run("dlq", "redrive", "scorer-svc", "--id", "0-7");

        assertThat(run.exit()).isZero();
        assertThat(run.out()).contains("0-7", "redriven", "re-driven to cryo.table-scanned.v1/2/99");
        assertThat(cryo.requests(Service.SCORER, "POST", "/api/v1/dead-letters/redrive")).singleElement().satisfies(request -> {
            assertThat(request.body()).isEqualTo("{\"ids\":[\"0-7\"]}");
            assertThat(request.authorization()).isEqualTo("Bearer fake-operator-token-000001");
        });
    }

    @Test
    void redriveWithoutIdsAsksForEveryWaitingLetterAndARefusalIsAnError() {
        cryo.route(Service.GOVERNOR, "POST", "/api/v1/dead-letters/redrive", request -> Answer.ok("""
                [{"id":"0-1","outcome":"refused","message":"Cannot re-drive 0-1: it has no dead-letter-topic header, so its original topic is unknown"}]"""));

        FakeCryo.Run run = cryo.run("dlq", "redrive", "governor");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.out()).contains("refused", "its original topic is unknown");
        assertThat(cryo.requests(Service.GOVERNOR, "POST", "/api/v1/dead-letters/redrive")).singleElement()
                .satisfies(request -> assertThat(request.body()).isEqualTo("{\"all\":true}"));
    }

    @Test
    void aViewerTokenIsRefusedByTheServiceAndTheCommandSaysSo() {
        cryo.route(Service.AUDIT, "POST", "/api/v1/dead-letters/redrive", request -> new Answer(403, ""));

        FakeCryo.Run run = FakeCryo.run(cryo.endpoints(Optional.of("viewer-token-0000000001"), Optional.empty()),
                "dlq", "redrive", "audit", "--id", "0-1");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("403");
    }

    @Test
    void anUnknownServiceIsNamed() {
        FakeCryo.Run run = cryo.run("dlq", "list", "console");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("Cannot use service 'console': expected one of [scanner, scorer, planner, governor, executor, audit]");
    }
}
