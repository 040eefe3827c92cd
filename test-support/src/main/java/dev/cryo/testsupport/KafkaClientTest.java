package dev.cryo.testsupport;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * A test that talks to the real broker through a {@link KafkaTestClient} of its own: opened before
 * each test method (before the subclass's own {@code @BeforeEach} methods run) and closed after it
 * (after the subclass's {@code @AfterEach} methods), so that no test sees another's producer.
 */
public abstract class KafkaClientTest {

    /** The client of the running test method. */
    protected KafkaTestClient kafka;

    @BeforeEach
    protected final void openKafkaClient() {
        kafka = new KafkaTestClient();
    }

    @AfterEach
    protected final void closeKafkaClient() {
        if (kafka != null) {
            kafka.close();
        }
    }
}
