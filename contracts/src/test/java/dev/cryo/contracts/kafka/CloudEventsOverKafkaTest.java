package dev.cryo.contracts.kafka;

import dev.cryo.contracts.TableId;
import dev.cryo.contracts.cloudevents.CloudEvents;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.cloudevents.EventType;
import dev.cryo.contracts.event.ChangeSource;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.TableChanged;
import dev.cryo.contracts.json.MalformedEventException;
import dev.cryo.testsupport.Infrastructure;
import dev.cryo.testsupport.NeedsInfrastructure;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A CloudEvents-encoded TableChanged goes through the real broker and comes back the same. */
@NeedsInfrastructure(Infrastructure.Component.KAFKA)
class CloudEventsOverKafkaTest {

    private TestTopics topics;

    @BeforeEach
    void createTopic() throws Exception {
        topics = new TestTopics();
    }

    @AfterEach
    void deleteTopic() throws Exception {
        topics.close();
    }

    @Test
    void producerAndConsumerExchangeATableChangedWithItsHeaders() throws Exception {
        TableChanged change = new TableChanged(TableId.parse("lakehouse.analytics.page_views"), ChangeSource.COMMIT_REPORT,
                Instant.now().truncatedTo(ChronoUnit.MILLIS), 42L, 7L, "append", null, null, null, "flink-job");
        EventEnvelope<TableChanged> sent = EventEnvelope.startChain(change, CloudEvents.source("contracts-test"),
                Instant.now().truncatedTo(ChronoUnit.MILLIS)).withActor("operator:alice");
        ProducerRecord<String, byte[]> record = KafkaEnvelopes.toRecord(sent, topics.topic);

        try (KafkaProducer<String, byte[]> producer = topics.producer()) {
            producer.send(record).get(30, TimeUnit.SECONDS);
        }
        ConsumerRecord<String, byte[]> received = topics.consume(1).get(0);

        assertThat(received.key()).isEqualTo("lakehouse.analytics.page_views");
        assertThat(headers(received)).isEqualTo(headers(record))
                .containsEntry("ce_specversion", "1.0")
                .containsEntry("ce_type", "dev.cryo.table.changed.v1")
                .containsEntry("ce_subject", "lakehouse.analytics.page_views")
                .containsEntry("ce_correlationid", sent.id())
                .containsEntry("content-type", "application/json");
        EventEnvelope<CryoEvent> read = KafkaEnvelopes.fromRecord(received);
        assertThat(read).isEqualTo(sent);
        assertThat(new CryoEventDeserializer().deserialize(topics.topic, received.headers(), received.value()))
                .isEqualTo(change);
    }

    @Test
    void aRecordWithoutCloudEventsHeadersIsRefusedWithTheReason() throws Exception {
        try (KafkaProducer<String, byte[]> producer = topics.producer()) {
            producer.send(new ProducerRecord<>(topics.topic, "c.n.t", "{\"table\":\"c.n.t\"}".getBytes(StandardCharsets.UTF_8)))
                    .get(30, TimeUnit.SECONDS);
        }
        ConsumerRecord<String, byte[]> received = topics.consume(1).get(0);

        assertThatThrownBy(() -> KafkaEnvelopes.fromRecord(received))
                .isInstanceOf(MalformedEventException.class)
                .hasMessageStartingWith("Cannot read record on " + topics.topic
                        + ": header ce_type is missing (Cryo events are CloudEvents in binary mode)");
        assertThatThrownBy(() -> new CryoEventDeserializer().deserialize(topics.topic, received.headers(), received.value()))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("header ce_type is missing");
    }

    @Test
    void anUnknownTypeOrBrokenPayloadIsRefusedWithTheReason() {
        ProducerRecord<String, byte[]> record = KafkaEnvelopes.toRecord(EventEnvelope.startChain(
                TableChanged.of(TableId.parse("c.n.t"), ChangeSource.WEBHOOK, Instant.now()), "/cryo/test", Instant.now()));
        record.headers().remove(CloudEvents.HEADER_TYPE).add(CloudEvents.HEADER_TYPE,
                "dev.cryo.table.changed.v9".getBytes(StandardCharsets.UTF_8));

        assertThatThrownBy(() -> new CryoEventDeserializer().deserialize("t", record.headers(), record.value()))
                .hasMessageStartingWith("Cannot read record on t: unknown event type 'dev.cryo.table.changed.v9'");

        assertThatThrownBy(() -> new CryoEventDeserializer().deserialize("t", KafkaEnvelopes.toRecord(
                EventEnvelope.startChain(TableChanged.of(TableId.parse("c.n.t"), ChangeSource.WEBHOOK, Instant.now()),
                        "/cryo/test", Instant.now())).headers(), "{\"table\":\"c.n\"}".getBytes(StandardCharsets.UTF_8)))
                .hasMessageContaining("Cannot read TableChanged")
                .hasMessageContaining("expected catalog.namespace.table");
        assertThat(EventType.fromId("dev.cryo.table.changed.v1")).contains(EventType.TABLE_CHANGED);
    }

    private static Map<String, String> headers(ConsumerRecord<String, byte[]> record) {
        return headers(Arrays.asList(record.headers().toArray()));
    }

    private static Map<String, String> headers(ProducerRecord<String, byte[]> record) {
        return headers(Arrays.asList(record.headers().toArray()));
    }

    private static Map<String, String> headers(List<Header> headers) {
        Map<String, String> map = new TreeMap<>();
        headers.forEach(header -> map.put(header.key(), new String(header.value(), StandardCharsets.UTF_8)));
        return map;
    }
}
