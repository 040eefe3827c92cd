package dev.cryo.platform;

import dev.cryo.contracts.Topics;
import dev.cryo.testsupport.Infrastructure;
import dev.cryo.testsupport.KafkaTestClient;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.util.Map;

/** Creates the test app's topics on the real broker before Quarkus starts (the broker does not auto-create). */
public class TestTopicsResource implements QuarkusTestResourceLifecycleManager {

    static final String IN = "cryo.test.platform-in.v1";
    static final String OUT = "cryo.test.platform-out.v1";
    /** Read only by FailedChannelTest's consumer, which never acknowledges. */
    static final String STUCK = "cryo.test.platform-stuck.v1";
    static final String DLQ = Topics.deadLetter("platformtest");

    @Override
    public Map<String, String> start() {
        Infrastructure.requireKafkaAndPostgresql();
        KafkaTestClient.createTopics(1, IN, OUT, STUCK, DLQ);
        return Map.of();
    }

    @Override
    public void stop() {
    }
}
