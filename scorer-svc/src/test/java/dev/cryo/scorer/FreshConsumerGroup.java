package dev.cryo.scorer;

import dev.cryo.contracts.Topics;
import dev.cryo.testsupport.Infrastructure;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.util.Map;
import java.util.UUID;

/**
 * Gives the test run a consumer group of its own, starting at the end of the scanned topic. Other
 * modules' tests publish thousands of scans there; a fixed group would have to work through all
 * of them since its last run before it reached this run's events. {@link KafkaScans#awaitConsuming()}
 * waits until the new group reads every partition.
 */
public class FreshConsumerGroup implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        Infrastructure.requireKafkaAndPostgresql();
        String channel = "mp.messaging.incoming.\"" + Topics.TABLE_SCANNED + "\".";
        return Map.of(
                channel + "group.id", "cryo-scorer-test-" + UUID.randomUUID(),
                channel + "auto.offset.reset", "latest");
    }

    @Override
    public void stop() {
    }
}
