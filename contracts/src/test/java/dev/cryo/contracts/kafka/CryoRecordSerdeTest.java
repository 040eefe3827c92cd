package dev.cryo.contracts.kafka;

import dev.cryo.contracts.TableId;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.ChangeSource;
import dev.cryo.contracts.event.TableChanged;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The consumers' deserializer never throws; the dead-letter serializer always fits the topic. */
class CryoRecordSerdeTest {

    private final ProducerRecord<String, byte[]> valid = KafkaEnvelopes.toRecord(EventEnvelope.startChain(
            TableChanged.of(TableId.parse("c.n.t"), ChangeSource.WEBHOOK, Instant.parse("2026-12-01T00:00:00Z")),
            "/cryo/test", Instant.parse("2026-12-01T00:00:00Z")));

    @Test
    void aCryoEventIsReadAsTheStrictDeserializerReadsIt() {
        Object read = new CryoRecordDeserializer().deserialize("t", valid.headers(), valid.value());

        assertThat(read).isEqualTo(new CryoEventDeserializer().deserialize("t", valid.headers(), valid.value()));
    }

    @Test
    void aRecordThatIsNotACryoEventIsAnUnreadableRecordWithTheStrictDeserializersReason() {
        byte[] garbage = "not json".getBytes(StandardCharsets.UTF_8);

        Object read = new CryoRecordDeserializer().deserialize("t", valid.headers(), garbage);
        Object bare = new CryoRecordDeserializer().deserialize("t", new RecordHeaders(), garbage);

        assertThat(read).isInstanceOfSatisfying(UnreadableRecord.class, unreadable -> {
            assertThat(unreadable.reason()).startsWith("Cannot read record on t: ");
            assertThat(unreadable.value()).isSameAs(garbage);
        });
        assertThat(bare).isInstanceOfSatisfying(UnreadableRecord.class, unreadable ->
                assertThat(unreadable.reason()).contains("header ce_type is missing"));
        assertThat(new CryoRecordDeserializer().deserialize("t", valid.headers(), (byte[]) null)).isNull();
    }

    @Test
    void aDeadLetterKeepsTheValueItCameWithUpToFourMebibytes() {
        byte[] small = "not json".getBytes(StandardCharsets.UTF_8);
        RecordHeaders headers = new RecordHeaders();

        assertThat(new CryoRecordSerializer().serialize("dlq", headers, new UnreadableRecord("r", small))).isEqualTo(small);
        assertThat(new CryoRecordSerializer().serialize("dlq", headers, small)).isEqualTo(small);
        Object event = new CryoEventDeserializer().deserialize("t", valid.headers(), valid.value());
        assertThat(new CryoRecordSerializer().serialize("dlq", headers, event)).isEqualTo(valid.value());
        assertThat(headers.lastHeader(CryoRecordSerializer.TRUNCATED_HEADER)).isNull();
    }

    @Test
    void aLongerValueIsCutAndTheDeadLetterSaysFromHowMuch() {
        byte[] huge = new byte[CryoRecordSerializer.MAX_VALUE_BYTES + 10];
        Arrays.fill(huge, (byte) 'x');
        RecordHeaders headers = new RecordHeaders();

        byte[] written = new CryoRecordSerializer().serialize("dlq", headers, new UnreadableRecord("too big", huge));

        assertThat(written).hasSize(CryoRecordSerializer.MAX_VALUE_BYTES);
        assertThat(new String(headers.lastHeader(CryoRecordSerializer.TRUNCATED_HEADER).value(), StandardCharsets.UTF_8))
                .isEqualTo(Integer.toString(huge.length));
    }

    @Test
    void aValueOfAnotherKindIsAnErrorNamingIt() {
        assertThatThrownBy(() -> new CryoRecordSerializer().serialize("dlq", new RecordHeaders(), 42))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("java.lang.Integer");
    }
}
