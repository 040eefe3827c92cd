package dev.cryo.cli.api;

import dev.cryo.cli.FakeCryo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EndpointsTest {

    @TempDir
    Path folder;

    @Test
    void servicesDefaultToTheLocalPortsAndEnvironmentVariablesMoveThem() {
        Endpoints endpoints = Endpoints.fromEnvironment(Map.of("CRYO_SCORER_URL", "http://scorer.internal:9000/"));

        assertThat(endpoints.url(Service.SCORER)).isEqualTo(URI.create("http://scorer.internal:9000"));
        assertThat(endpoints.url(Service.SCANNER)).isEqualTo(URI.create("http://127.0.0.1:8181"));
        assertThat(endpoints.url(Service.AUDIT)).isEqualTo(URI.create("http://127.0.0.1:8186"));
        assertThat(Service.GOVERNOR.urlVariable()).isEqualTo("CRYO_GOVERNOR_URL");
    }

    @Test
    void anInvalidUrlNamesTheVariable() {
        assertThatThrownBy(() -> Endpoints.fromEnvironment(Map.of("CRYO_PLANNER_URL", "planner:8183")))
                .isInstanceOf(CliException.class)
                .hasMessage("Cannot use CRYO_PLANNER_URL='planner:8183': expected a URL such as http://127.0.0.1:8183");
    }

    @Test
    void theTokenComesFromCryoTokenElseFromTheTokensFileOfTheDemo() throws IOException {
        Path tokens = folder.resolve("tokens.env");
        Files.writeString(tokens, "# written by ./cryo demo\nCRYO_VIEWER_TOKEN=viewer-token-0000000000000000000000\n"
                + "CRYO_OPERATOR_TOKEN='operator-token-000000000000000000000'\n");

        assertThat(Endpoints.fromEnvironment(Map.of("CRYO_TOKENS_FILE", tokens.toString())).requireToken())
                .isEqualTo("operator-token-000000000000000000000");
        assertThat(Endpoints.fromEnvironment(Map.of("CRYO_TOKENS_FILE", tokens.toString(), "CRYO_TOKEN", "from-env-token-0001"))
                .requireToken()).isEqualTo("from-env-token-0001");
        assertThat(Endpoints.fromEnvironment(Map.of("CRYO_RUNTIME_DIR", folder.toString())).requireToken())
                .isEqualTo("operator-token-000000000000000000000");
    }

    @Test
    void withoutATokenChangesAreRefusedNamingWhereOneComesFrom() {
        Endpoints endpoints = Endpoints.fromEnvironment(Map.of("CRYO_TOKENS_FILE", folder.resolve("missing.env").toString()));

        assertThatThrownBy(endpoints::requireToken)
                .isInstanceOf(CliException.class)
                .hasMessage("Cannot change anything without an operator token: set CRYO_TOKEN, or start Cryo with ./cryo demo,"
                        + " which writes one to " + folder.resolve("missing.env"));
    }

    @Test
    void aServiceThatIsDownIsNamedWithItsAddressAndHowToStartCryo() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        Endpoints endpoints = Endpoints.fromEnvironment(Map.of("CRYO_SCORER_URL", "http://127.0.0.1:" + closedPort));

        FakeCryo.Run run = FakeCryo.run(endpoints, "grade", "lakehouse.demo.orders");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("error: Cannot reach scorer-svc at http://127.0.0.1:" + closedPort
                + ": start Cryo with ./cryo demo (or ./cryo up), or point CRYO_SCORER_URL at it");
    }

    @Test
    void aRefusedTokenSaysSo() throws IOException {
        try (FakeCryo cryo = new FakeCryo()) {
            cryo.route(Service.SCANNER, "POST", "/api/v1/scans", request -> new FakeCryo.Answer(401, ""));
            cryo.json(Service.SCORER, "GET", "/api/v1/tables/lakehouse.demo.orders", dev.cryo.cli.Samples.grade(
                    "lakehouse.demo.orders", "A", 100, java.time.Instant.now()));

            FakeCryo.Run run = FakeCryo.run(cryo.endpoints(Optional.of("stale-token-0000000000"), Optional.empty()),
                    "fix", "lakehouse.demo.orders");

            assertThat(run.exit()).isEqualTo(2);
            assertThat(run.err()).contains("Cannot POST /api/v1/scans: scanner-svc did not accept the token (401); set CRYO_TOKEN");
        }
    }
    /** Reads send CRYO_TOKEN, else the tokens file's viewer token: a Cryo with closed reads answers them. */
    @Test
    void readsSendTheTokenWhereThereIsOneAndAClosedReadSaysWhichTokenToSet() throws IOException {
        Path tokens = folder.resolve("tokens.env");
        Files.writeString(tokens, "CRYO_OPERATOR_TOKEN=operator-token-0000001\nCRYO_VIEWER_TOKEN='viewer-token-00000001'\n");
        try (FakeCryo cryo = new FakeCryo()) {
            cryo.route(Service.SCORER, "GET", "/api/v1/tables/t", request -> request.authorization() == null
                    ? FakeCryo.Answer.error(401, "UNAUTHENTICATED", "reads are closed here (cryo.security.open-reads=false)")
                    : FakeCryo.Answer.ok("{\"seen\":\"" + request.authorization() + "\"}"));

            assertThat(new ApiClient(cryo.endpoints(Optional.empty(), Optional.of(tokens))).get(Service.SCORER, "/api/v1/tables/t")
                    .path("seen").asText()).isEqualTo("Bearer viewer-token-00000001");
            assertThat(new ApiClient(cryo.endpoints(Optional.of("own-token-000000000001"), Optional.of(tokens)))
                    .get(Service.SCORER, "/api/v1/tables/t").path("seen").asText()).isEqualTo("Bearer own-token-000000000001");
            assertThatThrownBy(() -> new ApiClient(cryo.endpoints(Optional.empty(), Optional.empty()))
                    .get(Service.SCORER, "/api/v1/tables/t"))
                    .isInstanceOf(ApiError.class)
                    .hasMessageContaining("closes its reads (401: reads are closed here (cryo.security.open-reads=false));"
                            + " set CRYO_TOKEN to a viewer's or an operator's token");
        }
    }
}
