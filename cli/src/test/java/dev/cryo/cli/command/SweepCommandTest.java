package dev.cryo.cli.command;

import dev.cryo.cli.FakeCryo;
import dev.cryo.cli.FakeCryo.Answer;
import dev.cryo.cli.api.Service;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class SweepCommandTest {

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
    void aSweepOfOneNamespaceSendsItsCatalogAndNamespaceAsTheOperator() {
        cryo.route(Service.SCANNER, "POST", "/api/v1/sweeps", request -> new Answer(202, """
                {"tables":13,"catalogs":{"lakehouse":13},"failures":[],"requestedBy":"operator:demo-operator",
                 "requestedAt":"2026-11-30T15:00:00Z"}"""));

        FakeCryo.Run run = cryo.run("sweep", "--catalog", "lakehouse", "--namespace", "demo");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("asked for a scan of 13 table(s) of catalog lakehouse, namespace demo, as "
                + "operator:demo-operator", "lakehouse", "13 table(s)");
        assertThat(cryo.requests(Service.SCANNER, "POST", "/api/v1/sweeps")).singleElement().satisfies(request -> {
            assertThat(request.body()).isEqualTo("{\"catalog\":\"lakehouse\",\"namespace\":\"demo\"}");
            assertThat(request.authorization()).isEqualTo("Bearer fake-operator-token-000001");
        });
    }

    @Test
    void aCatalogThatCouldNotBeListedIsNamedAndTheExitSaysSo() {
        cryo.route(Service.SCANNER, "POST", "/api/v1/sweeps", request -> new Answer(202, """
                {"tables":13,"catalogs":{"lakehouse":13},"failures":["glue: connection refused"],
                 "requestedBy":"operator:o","requestedAt":"2026-11-30T15:00:00Z"}"""));

        FakeCryo.Run run = cryo.run("sweep");

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.out()).contains("in every catalog", "not swept: glue: connection refused");
        assertThat(cryo.requests(Service.SCANNER, "POST", "/api/v1/sweeps")).singleElement()
                .satisfies(request -> assertThat(request.body()).isEqualTo("{}"));
    }

    @Test
    void theScannersRefusalIsShownAndNothingElseIsTried() {
        cryo.route(Service.SCANNER, "POST", "/api/v1/sweeps", request -> Answer.error(404, "UNKNOWN_CATALOG",
                "Cannot sweep catalog 'lake': it is not configured here; configured catalogs are [lakehouse]"));

        FakeCryo.Run run = cryo.run("sweep", "--catalog", "lake");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("Cannot sweep catalog 'lake': it is not configured here");
    }

    @Test
    void withoutAnOperatorTokenNothingIsAsked() {
        FakeCryo.Run run = FakeCryo.run(cryo.endpoints(Optional.empty(), Optional.empty()), "sweep");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("Cannot change anything without an operator token");
        assertThat(cryo.requests(Service.SCANNER, "POST", "/api/v1/sweeps")).isEmpty();
    }
}
