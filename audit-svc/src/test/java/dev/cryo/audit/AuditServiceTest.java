package dev.cryo.audit;

import dev.cryo.audit.config.AuditChannelsConfigSource;
import dev.cryo.audit.config.AuditConfig;
import dev.cryo.audit.domain.AuditTopics;
import dev.cryo.contracts.Topics;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/** What the service is configured with, and that it serves health, metrics and OpenAPI. */
@QuarkusTest
class AuditServiceTest {

    @Inject
    AuditConfig config;

    @Test
    void configurationDefaults() {
        assertThat(config.query().defaultLimit()).isEqualTo(100);
        assertThat(config.query().maxLimit()).isEqualTo(1000);
        assertThat(config.export().fetchSize()).isEqualTo(500);
        assertThat(config.ingest().firstBackoff()).isEqualTo(Duration.ofMillis(500));
        assertThat(config.ingest().maxBackoff()).isEqualTo(Duration.ofSeconds(30));
        assertThat(config.ingest().lagRefreshInterval()).isEqualTo(Duration.ofSeconds(2));
        assertThat(config.verify().maxReportedBreaks()).isEqualTo(100);
        assertThat(config.verify().fetchSize()).isEqualTo(1000);
        assertThat(config.partitions().monthsAhead()).isEqualTo(1);
        assertThat(config.replay().batchSize()).isEqualTo(500);
        assertThat(config.replay().liveCatchUpTimeout()).isEqualTo(Duration.ofMinutes(2));
        assertThat(config.replay().progressInterval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(config.replay().maxReportedDifferences()).isEqualTo(20);
    }

    @Test
    void everyTopicFamilyHasItsOwnConsumerGroupAndTheServiceWritesAsTheWriterRole() {
        assertThat(value(AuditChannelsConfigSource.incoming(Topics.TABLE_CHANGED, "group.id"))).isEqualTo("cryo-audit-test-changes");
        assertThat(value(AuditChannelsConfigSource.incoming(Topics.JOBS_RESULTS, "group.id"))).isEqualTo("cryo-audit-test-jobs");
        assertThat(value(AuditChannelsConfigSource.incoming(AuditTopics.DEAD_LETTER_CHANNEL, "group.id")))
                .isEqualTo("cryo-audit-test-dead-letters");
        assertThat(value(AuditChannelsConfigSource.incoming(AuditTopics.DEAD_LETTER_CHANNEL, "topics")))
                .contains("cryo.dlq.scanner.v1", "cryo.dlq.audit.v1");
        assertThat(value(AuditChannelsConfigSource.incoming(AuditTopics.DEAD_LETTER_CHANNEL, "fetch.max.bytes")))
                .as("a poll of dead letters holds about one record limit").isEqualTo(String.valueOf(Topics.MAX_RECORD_BYTES));
        assertThat(value(AuditChannelsConfigSource.incoming(AuditTopics.DEAD_LETTER_CHANNEL, "max.poll.records"))).isEqualTo("10");
        assertThat(AuditTopics.eventTopics()).allSatisfy(topic -> assertThat(value(AuditChannelsConfigSource.incoming(topic,
                "fetch.max.bytes"))).as("a poll of %s holds about one record limit", topic).isEqualTo(String.valueOf(Topics.MAX_RECORD_BYTES)));
        assertThat(AuditTopics.eventTopics()).allSatisfy(topic -> assertThat(value(AuditChannelsConfigSource.incoming(topic,
                "max.poll.records"))).as("records in a poll of %s", topic).isEqualTo("100"));
        assertThat(value("quarkus.datasource.username")).isEqualTo("cryo_audit");
        assertThat(value("quarkus.flyway.username")).isEqualTo("cryo_audit_owner");
    }

    @Test
    void healthMetricsAndOpenApiAreServed() {
        given().get("/q/health/ready").then().statusCode(200);
        given().get("/q/metrics").then().statusCode(200);
        given().get("/q/openapi").then().statusCode(200);
    }

    private static String value(String key) {
        return ConfigProvider.getConfig().getValue(key, String.class);
    }
}
