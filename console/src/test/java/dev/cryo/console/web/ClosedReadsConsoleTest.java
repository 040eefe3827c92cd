package dev.cryo.console.web;

import dev.cryo.contracts.Grade;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.cryo.console.web.ServiceAnswers.CLICKS;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Cryo that closes its reads ({@code cryo.security.open-reads=false}): the console shows no
 * page to anyone who has not signed in (the sign-in form says why), and its own reads of the
 * services carry its read token, a viewer's.
 */
@QuarkusTest
@QuarkusTestResource(FakeServices.class)
@TestProfile(ClosedReadsConsoleTest.ClosedReads.class)
class ClosedReadsConsoleTest {

    public static class ClosedReads implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("cryo.security.open-reads", "false", "cryo.console.read-token", ConsoleWebTest.VIEWER_TOKEN);
        }
    }

    @BeforeEach
    void services() {
        FakeServices.resetAll();
        ConsoleWebTest.answerScans();
        FakeServices.scorer.answer("GET", "/api/v1/tables", 200, ServiceAnswers.fleet(ServiceAnswers.graded(CLICKS, Grade.A, 100, null)));
        FakeServices.scanner.answer("GET", "/api/v1/tables", 200, ServiceAnswers.json(List.of(ServiceAnswers.scanned(CLICKS))));
    }

    @Test
    void withoutASessionEveryPageLeadsToTheSignInFormWhichSaysWhy() {
        Response fleet = given().redirects().follow(false).get("/?namespace=web");

        assertThat(fleet.statusCode()).isEqualTo(303);
        assertThat(fleet.header("Location")).contains("/login?next=%2F").contains("notice=reads-closed");
        given().redirects().follow(false).get("/tables/" + CLICKS).then().statusCode(303);
        given().redirects().follow(false).get("/queue").then().statusCode(303);
        given().get("/live/fleet").then().statusCode(401);
        given().get("/login?notice=reads-closed").then().statusCode(200)
                .body(org.hamcrest.Matchers.containsString("closes its reads"));
        assertThat(FakeServices.scorer.requests()).isEmpty();
    }

    @Test
    void aSignedInOperatorSeesTheFleetReadWithTheConsolesReadToken() {
        String session = ConsoleWebTest.signIn(ConsoleWebTest.csrf());

        given().cookie(OperatorSession.COOKIE, session).get("/").then().statusCode(200)
                .body(org.hamcrest.Matchers.containsString(CLICKS));

        assertThat(FakeServices.scorer.requests()).isNotEmpty()
                .allSatisfy(request -> assertThat(request.authorization()).isEqualTo("Bearer " + ConsoleWebTest.VIEWER_TOKEN));
    }
}
