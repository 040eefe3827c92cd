package dev.cryo.console.web;

import dev.cryo.console.client.GovernorApi.Pause;
import dev.cryo.console.client.GovernorApi.Policy;
import dev.cryo.contracts.Check;
import dev.cryo.contracts.Grade;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.Severity;
import dev.cryo.contracts.event.Deduction;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.cryo.console.web.ServiceAnswers.CLICKS;
import static dev.cryo.console.web.ServiceAnswers.NOW;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console's pages and actions over hand-written fakes of the services' HTTP APIs (the real services
 * are separate applications; the browser test drives them end to end). The audit service is down in
 * every test here.
 */
@QuarkusTest
@QuarkusTestResource(FakeServices.class)
class ConsoleWebTest {

    static final String OPERATOR_TOKEN = "operator-token-for-tests-01";
    static final String VIEWER_TOKEN = "viewer-token-for-tests-0001";
    static final String HOSTILE = "lake.web.<img src=x onerror=alert(1)>";

    /** A form's CSRF cookie and the token its hidden field carries. */
    record Csrf(String cookie, String token) {
    }

    @BeforeEach
    void services() {
        FakeServices.resetAll();
        answerScans();
    }

    /** The scanner's answers to scan requests: by token, as the real scanner answers them. */
    static void answerScans() {
        FakeServices.scanner.answer("POST", "/api/v1/scans", request -> {
            String authorization = request.authorization();
            if (("Bearer " + VIEWER_TOKEN).equals(authorization)) {
                return new FakeService.Answer(403, null);
            }
            if (!("Bearer " + OPERATOR_TOKEN).equals(authorization)) {
                return new FakeService.Answer(401, null);
            }
            if (request.body().contains("\"table\":null")) {
                return new FakeService.Answer(400, ServiceAnswers.error("INVALID_REQUEST",
                        "Cannot scan: the body must name a table, {\"table\": \"catalog.namespace.table\"}"));
            }
            return new FakeService.Answer(202, "{\"eventId\":\"evt-123\",\"table\":\"" + CLICKS + "\"}");
        });
    }

    @Test
    void theFleetListsEveryTableWithItsGradeAndEscapesWhatTheServicesSay() {
        FakeServices.scorer.answer("GET", "/api/v1/tables", 200, ServiceAnswers.fleet(
                ServiceAnswers.graded(CLICKS, Grade.F, 12, new Deduction(Check.SMALL_FILES, Severity.CRITICAL, 20,
                        0.9, 0.5, "share", Operation.OPTIMIZE, "<script>alert(1)</script> 90 % small")),
                ServiceAnswers.graded(HOSTILE, Grade.A, 100, null)));
        FakeServices.scanner.answer("GET", "/api/v1/tables", 200, ServiceAnswers.json(List.of(
                ServiceAnswers.scanned(CLICKS), ServiceAnswers.scanned("lake.web.fresh"))));
        FakeServices.governor.answer("GET", "/api/v1/tables/" + CLICKS, 200, ServiceAnswers.governed(CLICKS, "trino", null));

        String page = given().get("/").then().statusCode(200).extract().asString();

        assertThat(page).contains("<strong id=\"fleet-total\">3</strong>")
                .contains("data-table=\"lake.web.clicks\"").contains("data-grade=\"F\"")
                .contains("<td>trino</td>")
                .contains("&lt;script&gt;alert(1)&lt;/script&gt; 90 % small")
                .contains("lake.web.&lt;img src=x onerror=alert(1)&gt;")
                .contains("waiting for its first grade")
                .contains("(commit-report)")
                .doesNotContain("<script>alert(1)").doesNotContain("<img src=x");
        // the governor knows only one of the tables: the page says so for the others
        assertThat(page).contains("governor answered 404 NOT_FOUND");
        assertThat(page.indexOf("data-table=\"lake.web.clicks\"")).isLessThan(page.indexOf("data-table=\"lake.web.&lt;img"));
    }

    @Test
    void theLivePartOfTheFleetIsFilteredLikeThePageAndHasNoFrame() {
        FakeServices.scorer.answer("GET", "/api/v1/tables", 200, ServiceAnswers.fleet(
                ServiceAnswers.graded(CLICKS, Grade.F, 12, null), ServiceAnswers.graded("lake.web.orders", Grade.A, 100, null)));
        FakeServices.scanner.answer("GET", "/api/v1/tables", 200, "[]");

        String live = given().queryParam("grade", "F").get("/live/fleet").then().statusCode(200).extract().asString();

        assertThat(live).contains("data-table=\"lake.web.clicks\"").doesNotContain("data-table=\"lake.web.orders\"")
                .contains("1 shown").doesNotContain("<html");
    }

    @Test
    void aServiceThatIsDownIsNamedWhereItsPartWouldBe() {
        String page = given().get("/").then().statusCode(200).extract().asString();

        assertThat(page).contains("scorer answered 404 NOT_FOUND: Cannot find /api/v1/tables on the fake scorer")
                .contains("No table yet");
        String table = given().get("/tables/" + CLICKS).then().statusCode(200).extract().asString();
        assertThat(table).contains("audit unreachable at http://127.0.0.1:" + FakeServices.closedPort)
                .doesNotContain("Exception");
    }

    @Test
    void theTablePageShowsTheToDoListHistoryHeatMapPlanSqlJobsAndPolicy() {
        answerTable();

        String page = given().get("/tables/" + CLICKS).then().statusCode(200).extract().asString();

        assertThat(page).contains("<h1 id=\"table-id\">lake.web.clicks</h1>")
                .contains("id=\"score\">72</span>")
                .contains("data-check=\"small-files\"").contains("−20").contains("<td>62.3 %</td>").contains("<td>50 %</td>")
                .contains("<code>optimize</code>").contains("data-check=\"snapshot-count\"").contains("<td>140</td>")
                .contains("<polyline class=\"line\"")
                .contains("class=\"cell lvl-5\" title=\"2026-11-28: 12 small of 12 data files (117.2 KiB small)\"")
                .contains("chunk 0: event_ts_day = 2026-11-28")
                .contains("ALTER TABLE &quot;lake&quot;.&quot;web&quot;.&quot;clicks&quot; EXECUTE optimize")
                .contains("CALL `lake`.system.rewrite_data_files(")
                .contains("data-job=\"job-1\"").contains("outcome-succeeded")
                .contains("Engine <strong id=\"engine\">native</strong>")
                .contains("value=\"PT30M\"").contains("<option value=\"trino\" selected>")
                .contains("set by operator:alice");
        // without the audit log the jobs lose their files before and after, and the page says so
        assertThat(page).contains("audit unreachable at http://127.0.0.1:" + FakeServices.closedPort
                + ": Connection refused (files before and after are missing)");
    }

    @Test
    void aTableNotGradedYetSaysSoInsteadOfShowingAnError() {
        FakeServices.scorer.answer("GET", "/api/v1/tables/" + CLICKS, 404,
                ServiceAnswers.error("TABLE_NOT_GRADED", "Cannot find a grade of lake.web.clicks: it was never graded"));

        String page = given().get("/tables/" + CLICKS).then().statusCode(200).extract().asString();

        assertThat(page).contains("Not graded yet: Cannot find a grade of lake.web.clicks: it was never graded");
    }

    @Test
    void malformedAddressesAndFiltersGetAPageSayingWhatToWrite() {
        assertThat(given().get("/tables/nodots").then().statusCode(400).extract().asString())
                .contains("Cannot show table: Cannot parse table id &#39;nodots&#39;: expected catalog.namespace.table");
        assertThat(given().queryParam("sort", "size").get("/").then().statusCode(400).extract().asString())
                .contains("Cannot sort the fleet by &#39;size&#39;");
        assertThat(given().get("/nothing-here").then().statusCode(404).extract().asString())
                .contains("Cannot find this page");
    }

    @Test
    void pagesCarryTheSecurityHeaders() {
        given().get("/login").then().statusCode(200)
                .header("Content-Security-Policy", org.hamcrest.Matchers.containsString("script-src 'self'"))
                .header("X-Frame-Options", "DENY")
                .header("X-Content-Type-Options", "nosniff");
    }

    @Test
    void formsWithoutTheirCsrfTokenAreRefused() {
        given().redirects().follow(false).formParam("token", OPERATOR_TOKEN).post("/login").then().statusCode(400);
        given().redirects().follow(false).post("/tables/" + CLICKS + "/fix").then().statusCode(400);
        assertThat(FakeServices.scanner.requests()).isEmpty();
    }

    @Test
    void anActionWithoutASessionLeadsToTheSignInForm() {
        Csrf csrf = csrf();

        Response response = form(csrf, null).post("/tables/" + CLICKS + "/fix");

        assertThat(response.statusCode()).isEqualTo(303);
        assertThat(response.header("Location")).endsWith("/login?next=%2Ftables%2Flake.web.clicks");
        assertThat(FakeServices.scanner.requests()).isEmpty();
    }

    @Test
    void anOperatorSignsInAndFixNowReachesTheScannerWithTheirToken() {
        answerTable();
        Csrf csrf = csrf();

        Response login = form(csrf, null).formParam("token", OPERATOR_TOKEN).formParam("next", "/tables/" + CLICKS)
                .post("/login");

        assertThat(login.statusCode()).isEqualTo(303);
        assertThat(login.header("Location")).endsWith("/tables/lake.web.clicks?notice=signed-in");
        String setCookie = login.headers().getValues("Set-Cookie").stream()
                .filter(value -> value.startsWith(OperatorSession.COOKIE + "=")).findFirst().orElseThrow();
        assertThat(setCookie).contains("HttpOnly").containsIgnoringCase("SameSite=Strict").contains("Path=/")
                .doesNotContain(OPERATOR_TOKEN);
        String session = login.getCookie(OperatorSession.COOKIE);
        assertThat(FakeServices.scanner.requests()).singleElement()
                .satisfies(probe -> assertThat(probe.body()).contains("\"table\":null"));

        Response fix = form(csrf, session).post("/tables/" + CLICKS + "/fix");

        assertThat(fix.statusCode()).isEqualTo(303);
        assertThat(fix.header("Location")).endsWith("/tables/lake.web.clicks?notice=fix-requested&ref=evt-123");
        FakeService.Request scan = FakeServices.scanner.requests().get(1);
        assertThat(scan.authorization()).isEqualTo("Bearer " + OPERATOR_TOKEN);
        assertThat(scan.body()).isEqualTo("{\"table\":\"lake.web.clicks\"}");
        assertThat(given().cookie(OperatorSession.COOKIE, session).queryParam("notice", "fix-requested")
                .queryParam("ref", "evt-123").get("/tables/" + CLICKS).then().statusCode(200).extract().asString())
                .contains("Fix requested: the scanner published change evt-123.").contains("id=\"signed-in\"");
    }

    @Test
    void aViewerOrUnknownOrMalformedTokenCannotSignIn() {
        Csrf csrf = csrf();

        assertThat(form(csrf, null).formParam("token", VIEWER_TOKEN).post("/login").then().statusCode(401).extract()
                .asString()).contains("Cannot sign in: this is a viewer&#39;s token; actions need an operator&#39;s");
        assertThat(form(csrf, null).formParam("token", "someone-elses-token-1234").post("/login").then().statusCode(401)
                .extract().asString()).contains("Cannot sign in: the services do not know this token");
        assertThat(form(csrf, null).formParam("token", "short").post("/login").then().statusCode(401).extract()
                .asString()).contains("Cannot sign in: a token is 16 to 512 printable characters without spaces");
        assertThat(FakeServices.scanner.requests()).hasSize(2);
    }

    @Test
    void pauseResumeAndPolicyGoToTheGovernorWithTheOperatorsToken() {
        answerTable();
        Csrf csrf = csrf();
        String session = signIn(csrf);
        FakeServices.governor.answer("POST", "/api/v1/pauses", 201, ServiceAnswers.json(
                new Pause("pause-1", CLICKS, "quarter close", "operator:test", NOW)));
        FakeServices.governor.answer("DELETE", "/api/v1/pauses/pause-1", 204, null);
        FakeServices.governor.answer("PUT", "/api/v1/policies/" + CLICKS, 200, ServiceAnswers.json(
                new Policy(CLICKS, "PT1H", List.of("22:00-06:00 Europe/Berlin"), "spark", "operator:test", NOW)));

        Response pause = form(csrf, session).formParam("reason", "quarter close").post("/tables/" + CLICKS + "/pause");
        Response resume = form(csrf, session).formParam("pause", "pause-1").post("/tables/" + CLICKS + "/resume");
        Response policy = form(csrf, session).formParam("cooldown", "PT1H")
                .formParam("windows", "22:00-06:00 Europe/Berlin").formParam("engine", "spark")
                .post("/tables/" + CLICKS + "/policy");

        assertThat(pause.header("Location")).endsWith("?notice=paused&ref=pause-1");
        assertThat(resume.header("Location")).endsWith("?notice=resumed&ref=pause-1");
        assertThat(policy.header("Location")).endsWith("?notice=policy-saved&ref=lake.web.clicks");
        List<FakeService.Request> changes = FakeServices.governor.requests().stream()
                .filter(request -> !request.method().equals("GET")).toList();
        assertThat(changes).extracting(FakeService.Request::method).containsExactly("POST", "DELETE", "PUT");
        assertThat(changes).allSatisfy(request -> assertThat(request.authorization()).isEqualTo("Bearer " + OPERATOR_TOKEN));
        assertThat(changes.get(0).body()).isEqualTo("{\"pattern\":\"lake.web.clicks\",\"reason\":\"quarter close\"}");
        assertThat(changes.get(2).body())
                .isEqualTo("{\"cooldown\":\"PT1H\",\"windows\":[\"22:00-06:00 Europe/Berlin\"],\"engine\":\"spark\"}");
    }

    @Test
    void aRefusalIsShownWithTheServicesOwnMessageAndABadFormBeforeItIsSent() {
        answerTable();
        Csrf csrf = csrf();
        String session = signIn(csrf);
        FakeServices.governor.answer("PUT", "/api/v1/policies/" + CLICKS, 400, ServiceAnswers.error("INVALID_POLICY",
                "Cannot use window 'soon': write HH:MM-HH:MM [zone] or cron(...) <length> [zone]"));

        String refused = form(csrf, session).formParam("windows", "soon").post("/tables/" + CLICKS + "/policy")
                .then().statusCode(400).extract().asString();
        String invalid = form(csrf, session).formParam("cooldown", "30 minutes").post("/tables/" + CLICKS + "/policy")
                .then().statusCode(400).extract().asString();

        assertThat(refused).contains("Cannot save the policy of lake.web.clicks: governor answered 400 INVALID_POLICY: "
                + "Cannot use window &#39;soon&#39;").contains("id=\"score\">72</span>");
        assertThat(invalid).contains("Cannot save the policy: the cooldown &#39;30 minutes&#39; is not an ISO-8601 duration");
        assertThat(FakeServices.governor.requests().stream().filter(request -> request.method().equals("PUT"))).hasSize(1);
    }

    private static void answerTable() {
        FakeServices.scorer.answer("GET", "/api/v1/tables/" + CLICKS, 200, ServiceAnswers.grade(CLICKS, 72, Grade.C));
        FakeServices.scorer.answer("GET", "/api/v1/tables/" + CLICKS + "/history", 200, ServiceAnswers.history(CLICKS));
        FakeServices.scanner.answer("GET", "/api/v1/tables/" + CLICKS + "/scan", 200, ServiceAnswers.scan(CLICKS));
        FakeServices.planner.answer("GET", "/api/v1/tables/" + CLICKS + "/plan", 200, ServiceAnswers.plan(CLICKS));
        FakeServices.governor.answer("GET", "/api/v1/tables/" + CLICKS, 200, ServiceAnswers.governed(CLICKS, "native", null));
        FakeServices.governor.answer("GET", "/api/v1/policies", 200, ServiceAnswers.policies(
                new Policy(CLICKS, "PT30M", null, "trino", "operator:alice", NOW.minusSeconds(3600))));
        FakeServices.executor.answer("GET", "/api/v1/jobs", 200, ServiceAnswers.jobs(
                ServiceAnswers.finishedJob("job-1", CLICKS), ServiceAnswers.finishedJob("job-2", "lake.web.other")));
    }

    /** The CSRF cookie and hidden field of a form page. */
    static Csrf csrf() {
        Response login = given().get("/login");
        Matcher token = Pattern.compile("name=\"csrf-token\" value=\"([^\"]+)\"").matcher(login.asString());
        assertThat(token.find()).as("the sign-in form carries a CSRF token").isTrue();
        return new Csrf(login.getCookie("cryo_console_csrf"), token.group(1));
    }

    static io.restassured.specification.RequestSpecification form(Csrf csrf, String session) {
        var request = given().redirects().follow(false).contentType("application/x-www-form-urlencoded")
                .cookie("cryo_console_csrf", csrf.cookie()).formParam("csrf-token", csrf.token());
        return session == null ? request : request.cookie(OperatorSession.COOKIE, session);
    }

    static String signIn(Csrf csrf) {
        Response login = form(csrf, null).formParam("token", OPERATOR_TOKEN).post("/login");
        assertThat(login.statusCode()).isEqualTo(303);
        return login.getCookie(OperatorSession.COOKIE);
    }
}
