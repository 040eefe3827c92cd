package dev.cryo.platform;

import dev.cryo.contracts.Topics;
import dev.cryo.platform.config.ServiceConfig;
import dev.cryo.platform.config.ServiceInstance;
import dev.cryo.platform.messaging.EventPublisher;
import dev.cryo.platform.messaging.ProcessedEvents;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.equalTo;

/** The rest of what services inherit: configuration defaults, error answers, the idempotency table. */
@QuarkusTest
@QuarkusTestResource(TestTopicsResource.class)
class PlatformServiceTest {

    @Inject
    ServiceConfig config;

    @Inject
    ServiceInstance instance;

    @Inject
    ProcessedEvents processedEvents;

    @Test
    void defaultsNameTheSchemaGroupAndDeadLetterTopicAfterTheService() {
        assertThat(config.name()).isEqualTo("platformtest");
        assertThat(config.schema()).isEqualTo("platformtest_test");
        assertThat(value("mp.messaging.connector.smallrye-kafka.dead-letter-queue.topic"))
                .isEqualTo(Topics.deadLetter("platformtest"));
        assertThat(value("mp.messaging.connector.smallrye-kafka.group.id")).isEqualTo("cryo-platformtest-test");
        assertThat(value("mp.messaging.connector.smallrye-kafka.max.request.size"))
                .isEqualTo(String.valueOf(Topics.MAX_RECORD_BYTES));
        assertThat(value("mp.messaging.connector.smallrye-kafka.compression.type")).isEqualTo(Topics.COMPRESSION);
        assertThat(value("mp.messaging.connector.smallrye-kafka.acks")).isEqualTo("all");
        assertThat(value("quarkus.devservices.enabled")).isEqualTo("false");
        assertThat(instance.id()).startsWith("platformtest-");
        assertThat(instance.source()).isEqualTo("/cryo/platformtest");
    }

    @Test
    void brokerOutageTimeoutsAllFollowThePublishTimeout() {
        assertThat(value("cryo.messaging.publish-timeout")).isEqualTo("PT5M");
        assertThat(new EventPublisher(Map.of()).publishTimeout()).isEqualTo(Duration.ofMinutes(5));
        assertThat(value("mp.messaging.connector.smallrye-kafka.delivery.timeout.ms")).isEqualTo("300000");
        assertThat(value("mp.messaging.connector.smallrye-kafka.default.api.timeout.ms")).isEqualTo("300000");
        assertThat(value("mp.messaging.connector.smallrye-kafka.throttled.unprocessed-record-max-age.ms")).isEqualTo("0");
    }

    @Test
    void userErrorsAnswerWithTheirStatusCodeAndMessage() {
        given().get("/api/v1/test-errors/NOT_FOUND").then()
                .statusCode(404)
                .body("code", equalTo("NOT_FOUND"))
                .body("type", equalTo("USER"))
                .body("message", equalTo("Cannot do the thing: set cryo.thing.enabled=true"));
        given().get("/api/v1/test-errors/DEPENDENCY_UNAVAILABLE").then()
                .statusCode(503)
                .body("type", equalTo("EXTERNAL"));
    }

    @Test
    void healthMetricsAndOpenApiAreServed() {
        given().get("/q/health/ready").then().statusCode(200);
        given().get("/q/health/live").then().statusCode(200);
        given().get("/q/metrics").then().statusCode(200);
        given().get("/q/openapi").then().statusCode(200);
    }

    @Test
    void anEventIsMarkedProcessedOnlyOnce() {
        String eventId = UUID.randomUUID().toString();

        boolean first = QuarkusTransaction.requiringNew().call(() -> processedEvents.markProcessed("test", eventId));
        boolean second = QuarkusTransaction.requiringNew().call(() -> processedEvents.markProcessed("test", eventId));

        assertThat(first).isTrue();
        assertThat(second).isFalse();
        assertThat(processedEvents.isProcessed("test", eventId)).isTrue();
        assertThat(processedEvents.isProcessed("other", eventId)).isFalse();
    }

    @Test
    void markingOutsideATransactionIsRefused() {
        assertThatThrownBy(() -> processedEvents.markProcessed("test", "x"))
                .hasMessageContaining("Transaction");
    }

    private static String value(String key) {
        return ConfigProvider.getConfig().getValue(key, String.class);
    }
}
