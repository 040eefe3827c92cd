package dev.cryo.platform;

import dev.cryo.contracts.TableId;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.ChangeSource;
import dev.cryo.contracts.event.TableChanged;
import dev.cryo.contracts.kafka.KafkaEnvelopes;
import dev.cryo.platform.messaging.ChannelWatch;
import dev.cryo.testsupport.KafkaTestClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;

/**
 * A channel that SmallRye stops for good does not leave a healthy-looking service behind:
 * {@code /q/health/live} answers DOWN naming the channel (so an orchestrator restarts the
 * instance), {@link ChannelWatch} logs it as an ERROR once and counts it in
 * {@code cryo.messaging.channels.failed}. The failure is a real one: a record never acknowledged
 * on a channel that keeps SmallRye's unprocessed-record age limit (2 s here; the platform turns
 * it off, see microprofile-config.properties).
 */
@QuarkusTest
@TestProfile(FailedChannelTest.StuckChannel.class)
@QuarkusTestResource(TestTopicsResource.class)
class FailedChannelTest {

    public static class StuckChannel implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            String channel = "mp.messaging.incoming.platform-stuck.";
            return Map.of(
                    "cryo.test.stuck-channel", "true",
                    channel + "topic", TestTopicsResource.STUCK,
                    channel + "throttled.unprocessed-record-max-age.ms", "2000",
                    channel + "auto.commit.interval.ms", "500",
                    // the record the test sends may be written before the consumer gets its partition: a new group
                    // reading from the end would skip it, and the channel would never be stuck (seen in CI)
                    channel + "auto.offset.reset", "earliest",
                    // a group of its own: sharing the service's group with platform-in, the second member's join
                    // revoked the stuck partition and dropped the record's tracking before its age limit (seen in CI)
                    channel + "group.id", "cryo-platformtest-stuck-" + UUID.randomUUID());
        }
    }

    @Inject
    ChannelWatch watch;

    @Test
    void aStoppedChannelTurnsLivenessDownAndIsReportedOnce() {
        given().get("/q/health/live").then().statusCode(200);
        Instant now = Instant.now();
        TableId table = TableId.parse("lake.platform.stuck_" + UUID.randomUUID().toString().substring(0, 8));
        EventEnvelope<TableChanged> envelope = EventEnvelope.startChain(TableChanged.of(table, ChangeSource.MANUAL, now),
                "/cryo/test", now);
        try (KafkaTestClient kafka = new KafkaTestClient()) {
            kafka.send(KafkaEnvelopes.toRecord(envelope, TestTopicsResource.STUCK));
        }

        await("the stuck channel reported failed").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> assertThat(watch.failedChannels()).contains("platform-stuck"));
        given().get("/q/health/live").then().statusCode(503)
                .body(containsString("platform-stuck"))
                .body(containsString("waited for"));
        given().get("/q/metrics").then().statusCode(200)
                .body(containsString("cryo_messaging_channels_failed 1.0"));
    }
}
