package dev.cryo.testsupport;

import io.restassured.http.ContentType;
import io.restassured.response.Response;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hostile requests every service refuses alike, written once and applied to each service's own
 * endpoints in a line: table ids that climb out of a path, carry SQL or overflow a name (the rules of
 * contracts' {@code TableId}), and hostile bodies on the dead-letter endpoints every consuming service
 * mounts from platform. What only one service takes, its own {@code HostileInputTest} checks.
 */
public final class HostileRequests {

    private HostileRequests() {
    }

    /**
     * Every malformed table id, given to {@code call} (a path parameter or a body field), is refused with
     * 400 and the reason {@code TableId} gives; {@code catalog} is a catalog the service knows, so that
     * only the id's shape can be wrong.
     */
    public static void assertTableIdsRefused(String endpoint, String catalog, Function<String, Response> call) {
        Map<String, String> reasons = new LinkedHashMap<>();
        reasons.put(catalog + "../../etc/passwd", "Cannot create table id: namespace level is blank");
        reasons.put(catalog + ".x/../../etc.passwd", "Cannot create table id: namespace level is blank");
        reasons.put(catalog + ".x.t`; DROP TABLE t",
                "Cannot create table id: table 't`; DROP TABLE t' contains '.', '`' or a control character");
        reasons.put(catalog + ".x." + "t".repeat(1000), "Cannot create table id: table is longer than 255 characters");
        reasons.forEach((id, reason) -> {
            Response response = call.apply(id);
            String name = endpoint + " with " + (id.length() > 60 ? id.substring(0, 60) + "…" : id);
            assertThat(response.statusCode()).as(name).isEqualTo(400);
            assertThat(response.jsonPath().getString("message")).as(name).contains(reason);
        });
    }

    /** The table id as the only field of a JSON body, for {@link #assertTableIdsRefused} on a POST. */
    public static String tableBody(String id) {
        return "{\"table\": \"" + id + "\"}";
    }

    /**
     * The dead-letter endpoints refuse a body that is not JSON, a field they do not take (named, not
     * dropped: a redrive that ignored {@code where} would redrive everything) and a page size out of range.
     */
    public static void assertDeadLetterRequestsRefused() {
        Response truncated = redrive("{\"ids\": [\"x\"], \"all\": ");
        assertThat(truncated.statusCode()).as("redrive with a truncated body").isEqualTo(400);
        assertThat(truncated.jsonPath().getString("message")).startsWith("Cannot read the request body: it is not valid JSON");
        Response unknown = redrive("{\"all\": true, \"where\": \"1=1\"}");
        assertThat(unknown.statusCode()).as("redrive with a field it does not take").isEqualTo(400);
        assertThat(unknown.jsonPath().getString("message"))
                .isEqualTo("Cannot read the request body: unknown field 'where' (known fields: all, ids)");
        Response page = given().get("/api/v1/dead-letters?limit=0");
        assertThat(page.statusCode()).as("dead letters with limit 0").isEqualTo(400);
        assertThat(page.jsonPath().getString("message")).isEqualTo("Cannot list dead letters: limit must be 1 to 1000, not 0");
    }

    private static Response redrive(String body) {
        return given().header("Authorization", OperatorOnly.OPERATOR).contentType(ContentType.JSON).body(body)
                .post("/api/v1/dead-letters/redrive");
    }
}
