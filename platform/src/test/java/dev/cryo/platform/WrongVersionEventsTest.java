package dev.cryo.platform;

import dev.cryo.contracts.TableId;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.ChangeSource;
import dev.cryo.contracts.event.TableChanged;
import dev.cryo.contracts.kafka.KafkaEnvelopes;
import dev.cryo.testsupport.KafkaClientTest;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Events of a CloudEvents version or a data schema this consumer does not speak are dead-lettered with the reason. */
@QuarkusTest
@QuarkusTestResource(TestTopicsResource.class)
class WrongVersionEventsTest extends KafkaClientTest {

    @Inject
    EchoConsumer consumer;

    @Test
    void anotherSpecVersionIsDeadLettered() {
        assertDeadLettered("ce_specversion", "2.0", "2.0");
    }

    @Test
    void aDataSchemaOfAnotherVersionIsDeadLettered() {
        assertDeadLettered("ce_dataschema", "https://cryo.dev/schemas/dev.cryo.table.changed.v2.schema.json", "dev.cryo.table.changed.v2");
    }

    private void assertDeadLettered(String header, String value, String reasonFragment) {
        EventEnvelope<TableChanged> event = envelope();
        EventEnvelope<TableChanged> after = envelope();
        ProducerRecord<String, byte[]> record = KafkaEnvelopes.toRecord(event, TestTopicsResource.IN);
        record.headers().remove(header);
        record.headers().add(header, value.getBytes(StandardCharsets.UTF_8));
        Map<TopicPartition, Long> mark = kafka.mark(TestTopicsResource.DLQ);

        kafka.send(record);
        kafka.send(KafkaEnvelopes.toRecord(after, TestTopicsResource.IN));

        ConsumerRecord<String, byte[]> dead = kafka.readAfter(mark, Duration.ofSeconds(30),
                        records -> records.stream().anyMatch(r -> event.subject().equals(r.key()))).stream()
                .filter(r -> event.subject().equals(r.key())).findFirst().orElseThrow();
        assertThat(new String(dead.headers().lastHeader("dead-letter-reason").value(), StandardCharsets.UTF_8))
                .contains(reasonFragment);
        await().atMost(Duration.ofSeconds(30)).until(() -> consumer.received().stream().anyMatch(e -> e.id().equals(after.id())));
        assertThat(consumer.received()).noneMatch(e -> e.id().equals(event.id()));
    }

    private static EventEnvelope<TableChanged> envelope() {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        TableChanged change = new TableChanged(TableId.parse("lake.version.t" + UUID.randomUUID().toString().substring(0, 8)),
                ChangeSource.WEBHOOK, now, 1L, 1L, null, null, null, null, "writer");
        return EventEnvelope.startChain(change, "/cryo/test", now);
    }
}
