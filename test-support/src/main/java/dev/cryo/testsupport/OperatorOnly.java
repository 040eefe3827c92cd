package dev.cryo.testsupport;

import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

import java.util.List;
import java.util.function.Function;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Who may call a state-changing endpoint: an operator only. Without credentials and with a wrong
 * token the answer is 401, as a viewer 403. The tokens are the ones every service's test profile
 * configures ({@code cryo.security.tokens.*} in its test {@code application.properties}); what a
 * refused call must not have changed, each service's test checks itself.
 */
public final class OperatorOnly {

    public static final String OPERATOR = "Bearer test-operator-token-0001";
    public static final String VIEWER = "Bearer test-viewer-token-00001";
    public static final String WRONG = "Bearer not-a-token-of-this-cryo";

    /** A state-changing endpoint and how to call it, on a request that carries the caller's credentials. */
    public record Endpoint(String name, Function<RequestSpecification, Response> call) {

        /** {@code POST path} with a JSON body. */
        public static Endpoint post(String path, String json) {
            return new Endpoint("POST " + path, request -> request.contentType(ContentType.JSON).body(json).post(path));
        }
    }

    /** Every endpoint answers 401 without credentials and with a wrong token, 403 to a viewer. */
    public static void assertRefusedToAllButOperators(List<Endpoint> endpoints) {
        for (Endpoint endpoint : endpoints) {
            assertThat(endpoint.call().apply(given()).statusCode()).as(endpoint.name() + " without credentials").isEqualTo(401);
            assertThat(endpoint.call().apply(given().header("Authorization", WRONG)).statusCode())
                    .as(endpoint.name() + " with a wrong token").isEqualTo(401);
            assertThat(endpoint.call().apply(given().header("Authorization", VIEWER)).statusCode())
                    .as(endpoint.name() + " as a viewer").isEqualTo(403);
        }
    }

    private OperatorOnly() {
    }
}
