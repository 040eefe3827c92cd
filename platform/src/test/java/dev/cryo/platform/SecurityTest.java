package dev.cryo.platform;

import dev.cryo.platform.error.CryoException;
import dev.cryo.platform.security.ApiTokens;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static dev.cryo.testsupport.OperatorOnly.OPERATOR;
import static dev.cryo.testsupport.OperatorOnly.VIEWER;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.equalTo;

@QuarkusTest
@QuarkusTestResource(TestTopicsResource.class)
class SecurityTest {

    @Test
    void readsAreOpen() {
        given().get("/api/v1/test-guarded").then().statusCode(200).body(equalTo("anonymous"));
        given().header("Authorization", VIEWER).get("/api/v1/test-guarded").then()
                .statusCode(200).body(equalTo("viewer:test-viewer"));
    }

    @Test
    void changesNeedAnOperator() {
        given().post("/api/v1/test-guarded").then().statusCode(401).header("WWW-Authenticate", "Bearer realm=\"cryo\"");
        given().header("Authorization", VIEWER).post("/api/v1/test-guarded").then().statusCode(403);
        given().header("Authorization", "Bearer wrong-token-wrong-token").post("/api/v1/test-guarded").then().statusCode(401);
        given().header("Authorization", OPERATOR).post("/api/v1/test-guarded").then()
                .statusCode(200).body(equalTo("operator:test-operator"));
    }

    @Test
    void tokenSpecificationsAreCheckedWithoutEchoingTheToken() {
        assertThatThrownBy(() -> ApiTokens.parse(Optional.of("alice=admin:0123456789abcdef")))
                .isInstanceOf(CryoException.class)
                .hasMessage("Cannot read cryo.security.tokens: role 'admin' of 'alice' is not one of [operator, viewer]")
                .hasMessageNotContaining("0123456789abcdef");
        assertThatThrownBy(() -> ApiTokens.parse(Optional.of("alice=operator:short")))
                .hasMessage("Cannot read cryo.security.tokens: the token of 'alice' is shorter than 16 characters");
        assertThat(ApiTokens.parse(Optional.empty()).isEmpty()).isTrue();
        assertThat(ApiTokens.parse(Optional.of("a=viewer:0123456789abcdef")).find("0123456789abcdef"))
                .contains(new ApiTokens.Caller("a", "viewer"));
    }
}
