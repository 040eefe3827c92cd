package dev.cryo.scorer.security;

import dev.cryo.testsupport.OperatorOnly;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/**
 * With {@code cryo.security.open-reads=false} every API read needs a viewer's or an operator's
 * token: anonymous callers get 401 with the reason and the header to send, a wrong token 401,
 * viewers and operators read; health stays open for probes. (The filter is the platform's, the
 * same in every service.)
 */
@QuarkusTest
@TestProfile(ClosedReadsTest.ClosedReadsProfile.class)
class ClosedReadsTest {

    public static class ClosedReadsProfile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("cryo.security.open-reads", "false");
        }
    }

    @Test
    void anonymousReadsAreRefusedWithTheReason() {
        for (String path : new String[] {"/api/v1/tables", "/api/v1/dead-letters", "/api/v1/tables/lakehouse.demo.orders"}) {
            given().get(path).then().statusCode(401)
                    .header("WWW-Authenticate", containsString("Bearer"))
                    .body("code", equalTo("UNAUTHENTICATED"))
                    .body("message", containsString("cryo.security.open-reads=false"));
        }
        given().header("Authorization", OperatorOnly.WRONG).get("/api/v1/tables").then().statusCode(401);
    }

    @Test
    void viewersAndOperatorsRead() {
        given().header("Authorization", OperatorOnly.VIEWER).get("/api/v1/tables").then().statusCode(200);
        given().header("Authorization", "Bearer test-operator-token-0001").get("/api/v1/tables").then().statusCode(200);
    }

    @Test
    void healthStaysOpenForProbes() {
        given().get("/q/health/live").then().statusCode(200);
    }
}
