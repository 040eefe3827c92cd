package dev.cryo.platform;

import dev.cryo.contracts.TableId;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.ChangeSource;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.TableChanged;
import dev.cryo.contracts.kafka.CryoRecordSerializer;
import dev.cryo.contracts.kafka.KafkaEnvelopes;
import dev.cryo.platform.messaging.EventIds;
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
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The messaging defaults every service inherits, on the real broker: CloudEvents in binary
 * mode both ways (interoperable with plain kafka-clients), the table id as key, correlation
 * ids carried along, and poison records dead-lettered with their reason while the consumer
 * keeps going.
 */
@QuarkusTest
@QuarkusTestResource(TestTopicsResource.class)
class PlatformMessagingTest extends KafkaClientTest {

    @Inject
    EchoConsumer consumer;

    @Test
    void aPlainClientEventIsReceivedAndTheEchoCarriesTheSameCorrelation() {
        EventEnvelope<TableChanged> sent = envelope("ok");
        Map<TopicPartition, Long> mark = kafka.mark(TestTopicsResource.OUT);

        kafka.send(KafkaEnvelopes.toRecord(sent, TestTopicsResource.IN));

        await().atMost(Duration.ofSeconds(30)).until(() -> received(sent.id()) != null);
        assertThat(received(sent.id())).isEqualTo(sent);
        ConsumerRecord<String, byte[]> echo = kafka.readAfter(mark, Duration.ofSeconds(30),
                records -> records.stream().anyMatch(r -> hasId(r, EventIds.derived(sent.id(), "echo")))).stream()
                .filter(r -> hasId(r, EventIds.derived(sent.id(), "echo"))).findFirst().orElseThrow();
        EventEnvelope<CryoEvent> read = KafkaEnvelopes.fromRecord(echo);
        assertThat(echo.key()).isEqualTo(sent.subject());
        assertThat(read.correlationId()).isEqualTo(sent.correlationId());
        assertThat(read.actor()).isEqualTo("ok");
        assertThat(read.source()).isEqualTo("/cryo/platformtest");
        assertThat(read.data()).isEqualTo(sent.data());
    }

    @Test
    void aFailingRecordIsDeadLetteredWithItsReasonAndConsumptionGoesOn() {
        EventEnvelope<TableChanged> poison = envelope("poison");
        EventEnvelope<TableChanged> after = envelope("ok");
        Map<TopicPartition, Long> mark = kafka.mark(TestTopicsResource.DLQ);

        kafka.send(KafkaEnvelopes.toRecord(poison, TestTopicsResource.IN));
        kafka.send(KafkaEnvelopes.toRecord(after, TestTopicsResource.IN));

        ConsumerRecord<String, byte[]> dead = deadLetterOf(mark, poison.id());
        assertThat(header(dead, "dead-letter-reason")).contains("the actor is poison");
        assertThat(header(dead, "ce_type")).isEqualTo("dev.cryo.table.changed.v1");
        await().atMost(Duration.ofSeconds(30)).until(() -> received(after.id()) != null);
    }

    @Test
    void aRecordThatIsNotACryoEventIsDeadLetteredWithTheDeserializerReason() {
        String key = "c.n.garbage-" + UUID.randomUUID();
        EventEnvelope<TableChanged> after = envelope("ok");
        Map<TopicPartition, Long> mark = kafka.mark(TestTopicsResource.DLQ);

        kafka.send(new ProducerRecord<>(TestTopicsResource.IN, key, "not json".getBytes(StandardCharsets.UTF_8)));
        kafka.send(KafkaEnvelopes.toRecord(after, TestTopicsResource.IN));

        List<ConsumerRecord<String, byte[]>> dead = kafka.readAfter(mark, Duration.ofSeconds(30),
                records -> records.stream().anyMatch(r -> key.equals(r.key())));
        ConsumerRecord<String, byte[]> record = dead.stream().filter(r -> key.equals(r.key())).findFirst().orElseThrow();
        assertThat(header(record, "dead-letter-reason")).contains("header ce_type is missing");
        assertThat(new String(record.value(), StandardCharsets.UTF_8)).isEqualTo("not json");
        await().atMost(Duration.ofSeconds(30)).until(() -> received(after.id()) != null);
    }

    @Test
    void aMalformedRecordOfSixMebibytesIsDeadLetteredCutToOneAndConsumptionGoesOn() {
        // Until 2026-12-01 SmallRye kept such a record three times in its dead letter (18.9 MB), the
        // producer refused it, and the consumer stopped on the record for good.
        String key = "c.n.huge-" + UUID.randomUUID();
        byte[] huge = new byte[6 * 1024 * 1024];
        new Random(7).nextBytes(huge);
        EventEnvelope<TableChanged> after = envelope("ok");
        Map<TopicPartition, Long> mark = kafka.mark(TestTopicsResource.DLQ);

        kafka.send(new ProducerRecord<>(TestTopicsResource.IN, key, huge));
        kafka.send(KafkaEnvelopes.toRecord(after, TestTopicsResource.IN));

        List<ConsumerRecord<String, byte[]>> dead = kafka.readAfter(mark, Duration.ofSeconds(60),
                records -> records.stream().anyMatch(r -> key.equals(r.key())));
        ConsumerRecord<String, byte[]> record = dead.stream().filter(r -> key.equals(r.key())).findFirst().orElseThrow();
        assertThat(header(record, "dead-letter-reason")).contains("header ce_type is missing");
        assertThat(header(record, CryoRecordSerializer.TRUNCATED_HEADER)).isEqualTo(Integer.toString(huge.length));
        assertThat(record.value()).hasSize(CryoRecordSerializer.MAX_VALUE_BYTES)
                .isEqualTo(Arrays.copyOf(huge, CryoRecordSerializer.MAX_VALUE_BYTES));
        await().atMost(Duration.ofSeconds(60)).until(() -> received(after.id()) != null);
    }

    private ConsumerRecord<String, byte[]> deadLetterOf(Map<TopicPartition, Long> mark, String eventId) {
        return kafka.readAfter(mark, Duration.ofSeconds(30), records -> records.stream().anyMatch(r -> hasId(r, eventId)))
                .stream().filter(r -> hasId(r, eventId)).findFirst().orElseThrow();
    }

    private EventEnvelope<CryoEvent> received(String id) {
        return consumer.received().stream().filter(envelope -> envelope.id().equals(id)).findFirst().orElse(null);
    }

    private static EventEnvelope<TableChanged> envelope(String actor) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        TableChanged change = new TableChanged(TableId.parse("lake.platform.t" + UUID.randomUUID().toString().substring(0, 8)),
                ChangeSource.WEBHOOK, now, 1L, 1L, null, null, null, null, actor);
        return EventEnvelope.startChain(change, "/cryo/test", now).withActor(actor);
    }

    private static boolean hasId(ConsumerRecord<String, byte[]> record, String id) {
        return id.equals(header(record, "ce_id"));
    }

    private static String header(ConsumerRecord<String, byte[]> record, String name) {
        var header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
