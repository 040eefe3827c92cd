package dev.cryo.audit.messaging;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;

import java.nio.charset.StandardCharsets;

/**
 * Record values as the bytes published, except that a value of {@link #LARGE_BYTES} or more is
 * left out: the record comes with an empty value and a {@link #LEFT_OUT_HEADER} header, and
 * {@link LargeValues} reads it again, alone, when its turn to be stored comes.
 *
 * <p>Why: the audit's nine consumers poll at once, a poll holds every record it reads, and each
 * channel keeps a batch or two waiting while the chain lock lets one batch at a time be stored.
 * Kafka limits a fetch by compressed bytes only, so a backlog of well-compressible records of 6 MiB
 * on every topic put the whole backlog in memory and the audit ran out of heap at every start
 * (FaultInjectionTest#theAuditCatchesUpOnABacklogOfHugeRecordsOnEveryTopic). With large values left
 * out, a poll holds at most {@code max.poll.records} values under this size.
 *
 * <p>Kafka also hands out headers that are views into the whole decompressed record until their
 * key and value are first read; reading them here copies each header's few bytes, so that the
 * record's buffer is not kept alive while the batch waits.
 */
public class DetachedBytesDeserializer implements Deserializer<byte[]> {

    /**
     * Values from this size on are read again alone. Cryo's events are a few KB; a scan of a table with
     * a few hundred partitions or more is larger, and costs one more fetch.
     */
    public static final int LARGE_BYTES = 64 * 1024;
    /** Added to a record whose value was left out; its value is the value's size in bytes. */
    public static final String LEFT_OUT_HEADER = "cryo-audit-left-out-bytes";
    private static final byte[] LEFT_OUT = new byte[0];

    @Override
    public byte[] deserialize(String topic, byte[] data) {
        return data;
    }

    @Override
    public byte[] deserialize(String topic, Headers headers, byte[] data) {
        if (headers == null) {
            return data;
        }
        for (Header header : headers) {
            header.key();
            header.value();
        }
        if (data != null && data.length >= LARGE_BYTES) {
            headers.add(LEFT_OUT_HEADER, Integer.toString(data.length).getBytes(StandardCharsets.US_ASCII));
            return LEFT_OUT;
        }
        return data;
    }

    /** Whether the value of that record was left out for its size. */
    public static boolean leftOut(ConsumerRecord<?, ?> record) {
        return record.headers().lastHeader(LEFT_OUT_HEADER) != null;
    }
}
