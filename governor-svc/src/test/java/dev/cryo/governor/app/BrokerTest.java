package dev.cryo.governor.app;

import io.restassured.http.ContentType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import static dev.cryo.testsupport.OperatorOnly.OPERATOR;
import static io.restassured.RestAssured.given;

/**
 * A governor test on the real broker: a {@link Broker} of its own for every test, with this module's
 * test tables ({@code lake.governor_test.*}) routed to the native engine, since other modules' plans
 * go to Spark, which has no slots in tests.
 */
abstract class BrokerTest {

    protected Broker broker;

    @BeforeEach
    void connect() {
        broker = new Broker();
        given().header("Authorization", OPERATOR).contentType(ContentType.JSON).body("{\"engine\": \"native\"}")
                .put("/api/v1/policies/lake.governor_test.*").then().statusCode(200);
    }

    @AfterEach
    void disconnect() {
        broker.close();
    }
}
