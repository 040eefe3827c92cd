package dev.cryo.platform;

import dev.cryo.contracts.event.CryoEvent;
import io.quarkus.arc.properties.IfBuildProperty;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A consumer whose records are never acknowledged, as one whose publish waits on a broker that
 * does not come back: with an unprocessed-record age limit on its channel, SmallRye stops the
 * channel for good. Exists only in {@link FailedChannelTest}'s profile.
 */
@ApplicationScoped
@IfBuildProperty(name = "cryo.test.stuck-channel", stringValue = "true")
public class StuckConsumer {

    @Incoming("platform-stuck")
    public CompletionStage<Void> consume(Message<CryoEvent> message) {
        return new CompletableFuture<>();
    }
}
