package dev.cryo.executor.security;

import dev.cryo.contracts.Topics;
import dev.cryo.testsupport.RedriveAccess;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;

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
        String table = "exectest.maintenance.authz_" + java.util.UUID.randomUUID().toString().substring(0, 8);
        for (String authorization : new String[] {null, "Bearer wrong-token-000000000000", "Bearer test-viewer-token-00001"}) {
            int expected = authorization != null && authorization.contains("viewer") ? 403 : 401;
            var listing = authorization == null ? given() : given().header("Authorization", authorization);
            listing.get("/api/v1/tables/" + table + "/orphans").then().statusCode(expected);
            var release = authorization == null ? given() : given().header("Authorization", authorization);
            release.contentType(io.restassured.http.ContentType.JSON).body("{\"reason\": \"x\"}")
                    .post("/api/v1/tables/" + table + "/orphans/brake-release").then().statusCode(expected);
        }
        given().get("/api/v1/tables/" + table + "/orphans/brake-releases").then().statusCode(200)
                .body("size()", org.hamcrest.Matchers.equalTo(0));
    }
}
