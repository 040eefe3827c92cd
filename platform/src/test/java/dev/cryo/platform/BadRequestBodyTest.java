package dev.cryo.platform;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import static dev.cryo.testsupport.OperatorOnly.OPERATOR;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

/** Every service's JSON endpoints refuse a body that is not what they take, with a 400 that says why. */
@QuarkusTest
@QuarkusTestResource(TestTopicsResource.class)
class BadRequestBodyTest {

    static final String PATH = "/api/v1/dead-letters/redrive";

    @Test
    void aBodyThatIsNotJsonIsRefusedAsSuch() {
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON).body("{\"ids\": [\"0-1\"")
                .post(PATH).then().statusCode(400).body("code", equalTo("INVALID_REQUEST"))
                .body("message", startsWith("Cannot read the request body: it is not valid JSON ("));
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON).body("DROP TABLE x; --")
                .post(PATH).then().statusCode(400)
                .body("message", startsWith("Cannot read the request body: it is not valid JSON (Unrecognized token 'DROP'"));
    }

    @Test
    void anUnknownFieldIsNamedInsteadOfBeingDropped() {
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON).body("{\"idz\": [\"0-1\"]}")
                .post(PATH).then().statusCode(400)
                .body("message", equalTo("Cannot read the request body: unknown field 'idz' (known fields: all, ids)"));
    }

    @Test
    void aValueOfTheWrongTypeNamesItsField() {
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON).body("{\"ids\": {\"a\": 1}}")
                .post(PATH).then().statusCode(400)
                .body("message", equalTo("Cannot read the request body: field 'ids' is not a JSON array"));
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON).body("{\"all\": \"yes please\"}")
                .post(PATH).then().statusCode(400)
                .body("message", startsWith("Cannot read the request body: field 'all' has a value of the wrong form: yes please is not a boolean"));
    }

    @Test
    void aHugeFieldIsNotEchoedBack() {
        String huge = "x".repeat(70_000);
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON).body("{\"" + huge + "\": 1}")
                .post(PATH).then().statusCode(400)
                .body("message", startsWith("Cannot read the request body: a name, string or number in it is too long (Name length"))
                .body("message.length()", org.hamcrest.Matchers.lessThan(300));
    }
}
