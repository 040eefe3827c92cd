package dev.cryo.platform;

import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.TableChanged;
import dev.cryo.platform.config.ServiceInstance;
import dev.cryo.platform.messaging.EventConsumers;
import dev.cryo.platform.messaging.EventIds;
import dev.cryo.platform.messaging.EventPublisher;
import io.smallrye.common.annotation.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A consumer as services write them: reads an envelope, publishes a derived event, and is
 * acknowledged after the publication. A payload whose actor is "poison" fails, to exercise the
 * dead-letter path. The test channel's topic is configured in application.properties; the
 * derived event goes to the topic of its type, remapped here to a test topic.
 */
@ApplicationScoped
public class EchoConsumer {

    private final List<EventEnvelope<CryoEvent>> received = new CopyOnWriteArrayList<>();
    /** Tables whose events fail, as if a dependency of theirs were broken, until a test repairs them. */
    private final Set<String> brokenTables = ConcurrentHashMap.newKeySet();

    private final EventConsumers consumers;
    private final EventPublisher publisher;
    private final ServiceInstance instance;

    EchoConsumer(EventConsumers consumers, @Channel("platform-out") Emitter<CryoEvent> out, ServiceInstance instance) {
        this.consumers = consumers;
        this.publisher = new EventPublisher(Map.of(dev.cryo.contracts.Topics.TABLE_CHANGED, out));
        this.instance = instance;
    }

    List<EventEnvelope<CryoEvent>> received() {
        return received;
    }

    void breakTable(String table) {
        brokenTables.add(table);
    }

    void repairTable(String table) {
        brokenTables.remove(table);
    }

    @Incoming("platform-in")
    @Blocking
    public CompletionStage<Void> consume(Message<CryoEvent> message) {
        return consumers.consume("echo", message, envelope -> {
            if (envelope.data() instanceof TableChanged change && "poison".equals(change.actor())) {
                throw new IllegalArgumentException("Cannot echo " + envelope.id() + ": the actor is poison");
            }
            if (brokenTables.contains(envelope.subject())) {
                throw new IllegalStateException("Cannot echo " + envelope.id() + ": table " + envelope.subject() + " is broken");
            }
            received.add(envelope);
            return List.of(new EventEnvelope<>(EventIds.derived(envelope.id(), "echo"), envelope.type(),
                    instance.source(), Instant.now(), envelope.subject(), envelope.correlationId(), envelope.actor(),
                    envelope.data()));
        }, publisher);
    }
}
