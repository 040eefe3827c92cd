package dev.cryo.governor.rest;

import dev.cryo.contracts.TableId;
import dev.cryo.governor.app.Events;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import static dev.cryo.testsupport.OperatorOnly.OPERATOR;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

/** The operator's rules over HTTP: policies, pauses and engines, refused with what to change or recorded with who set them. */
@QuarkusTest
class RuleApiTest {

    @Test
    void badRulesAreRefusedWithWhatToChange() {
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON)
                .body("{\"pattern\": \"lake.[x].t\", \"reason\": \"r\"}").post("/api/v1/pauses").then()
                .statusCode(400).body("code", equalTo("INVALID_POLICY"))
                .body("message", equalTo("Cannot use table pattern 'lake.[x].t': '[' is not supported; "
                        + "use * (within a part), ** (across parts) or ? (one character)"));
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON)
                .body("{\"windows\": [\"nightly\"]}").put("/api/v1/policies/lake.sales.*").then()
                .statusCode(400).body("message", org.hamcrest.Matchers.startsWith("Cannot use window 'nightly': write "));
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON)
                .body("{\"engine\": \"flink\"}").put("/api/v1/policies/lake.sales.*").then()
                .statusCode(400).body("message", equalTo("Cannot use engine 'flink': expected native, trino or spark"));
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON)
                .body("{\"cooldown\": \"10 minutes\"}").put("/api/v1/policies/lake.sales.*").then()
                .statusCode(400).body("message", equalTo("Cannot set the policy of 'lake.sales.*': cooldown "
                        + "'10 minutes' is not an ISO-8601 duration such as PT10M"));
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON)
                .body("{\"slots\": 2}").put("/api/v1/engines/flink").then()
                .statusCode(400).body("message", equalTo("Cannot use engine 'flink': expected native, trino or spark"));
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON)
                .body("{\"slots\": -1}").put("/api/v1/engines/spark").then()
                .statusCode(400).body("message", equalTo("Cannot set engine spark: slots must be 0 to 1000 "
                        + "(0 admits nothing), not -1"));
        given().get("/api/v1/tables/not-a-table").then().statusCode(400)
                .body("message", equalTo("Cannot show table 'not-a-table': Cannot parse table id 'not-a-table': "
                        + "expected catalog.namespace.table"));
    }

    @Test
    void policiesAreReadableByAnyoneAndRecordWhoSetThem() {
        TableId table = Events.uniqueTable("policy");
        String pattern = table.catalog() + "." + table.namespaceName() + ".policy_*";
        given().contentType(ContentType.JSON).body("{\"cooldown\": \"PT1M\"}").put("/api/v1/policies/" + pattern)
                .then().statusCode(401);
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON)
                .body("{\"cooldown\": \"PT1M\", \"windows\": [\"22:00-06:00 Europe/Berlin\"]}")
                .put("/api/v1/policies/" + pattern).then().statusCode(200);

        given().get("/api/v1/policies").then().statusCode(200)
                .body("find { it.pattern == '" + pattern + "' }.updatedBy", equalTo("operator:test-operator"))
                .body("find { it.pattern == '" + pattern + "' }.windows", hasItem("22:00-06:00 Europe/Berlin"));
        given().get("/api/v1/tables/" + table).then().statusCode(200)
                .body("cooldown", equalTo("PT1M"))
                .body("windows", hasItem("22:00-06:00 Europe/Berlin"))
                .body("rules", hasItem(pattern));
        given().header("Authorization", OPERATOR).delete("/api/v1/policies/" + pattern).then().statusCode(204);
    }
}
