package dev.cryo.executor.security;

import dev.cryo.contracts.Topics;
import dev.cryo.testsupport.OperatorOnly;
import dev.cryo.testsupport.RedriveAccess;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

/**
 * The executor's operators' endpoints: the dead-letter re-drive every service has, the release of
 * the orphan share brake, and the orphan listing (it lists a whole table location and reads every
 * manifest): without credentials 401, with a wrong token 401, as a viewer 403, and nothing is
 * published or recorded; the other reads stay open to anonymous callers and viewers.
 */
@QuarkusTest
class AuthorizationTest {

    @Test
    void theRedriveRefusesAnonymousWrongAndViewerCallersAndPublishesNothing() {
        RedriveAccess.assertOnlyOperatorsRedrive(Topics.deadLetter("executor"));
    }

    @Test
    void theOrphanListingAndTheBrakeReleaseAreForOperatorsOnly() {
        String table = "exectest.maintenance.authz_" + UUID.randomUUID().toString().substring(0, 8);
        OperatorOnly.assertRefusedToAllButOperators(List.of(
                new OperatorOnly.Endpoint("GET /api/v1/tables/{table}/orphans",
                        request -> request.get("/api/v1/tables/" + table + "/orphans")),
                OperatorOnly.Endpoint.post("/api/v1/tables/" + table + "/orphans/brake-release", "{\"reason\": \"x\"}")));
        given().get("/api/v1/tables/" + table + "/orphans/brake-releases").then().statusCode(200)
                .body("size()", equalTo(0));
    }
}
