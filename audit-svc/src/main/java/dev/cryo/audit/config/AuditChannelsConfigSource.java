package dev.cryo.audit.config;

import dev.cryo.contracts.Topics;

import dev.cryo.audit.domain.AuditTopics;
import org.eclipse.microprofile.config.spi.ConfigSource;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The per-channel settings of the audit's consumers, computed from contracts' topics so that no
 * topic name is written by hand: a consumer group per topic family ({@code <group>-changes},
 * {@code <group>-jobs}, ...), and the one channel that reads every dead-letter topic.
 *
 * <p>Ordinal 200: above the platform defaults (100), below {@code application.properties} (250) and
 * the environment, which can still override any of it.
 */
public class AuditChannelsConfigSource implements ConfigSource {

    static final String GROUP = "${mp.messaging.connector.smallrye-kafka.group.id}";
    /** Events in one poll, so one batch: see the constructor. */
    static final int EVENTS_PER_POLL = 100;
    /** Dead letters in one poll, so one batch: see the constructor. */
    static final int DEAD_LETTERS_PER_POLL = 10;

    private final Map<String, String> properties;

    public AuditChannelsConfigSource() {
        Map<String, String> values = new LinkedHashMap<>();
        for (String topic : AuditTopics.eventTopics()) {
            values.put(incoming(topic, "group.id"), GROUP + "-" + AuditTopics.family(topic));
            // A batch is one poll, nine channels poll at once, and each keeps a batch or two waiting while
            // another is stored. Kafka bounds a fetch by compressed bytes only, so a poll's memory is its
            // record count times the largest value it holds: values from 64 KiB on are left out of the
            // polls and read again alone (messaging/DetachedBytesDeserializer), and a poll holds at most
            // EVENTS_PER_POLL records, so that nine channels' batches of values just under that size fit.
            values.put(incoming(topic, "max.poll.records"), String.valueOf(EVENTS_PER_POLL));
            values.put(incoming(topic, "fetch.max.bytes"), String.valueOf(Topics.MAX_RECORD_BYTES));
        }
        String deadLetters = AuditTopics.DEAD_LETTER_CHANNEL;
        values.put(incoming(deadLetters, "connector"), "smallrye-kafka");
        values.put(incoming(deadLetters, "topics"), String.join(",", AuditTopics.deadLetterTopics()));
        values.put(incoming(deadLetters, "group.id"), GROUP + "-" + AuditTopics.DEAD_LETTER_FAMILY);
        // A dead letter that cannot be stored is not dead-lettered again (it would come straight back):
        // the channel stops and the health check says why.
        values.put(incoming(deadLetters, "failure-strategy"), "fail");
        // A batch is one poll. Cryo's dead letters carry at most 1 MiB of value (platform README), but
        // anything can be written to a dead-letter topic, up to the 8 MiB record limit; with the shared 1000
        // records and 50 MB fetch, a backlog of large dead letters once filled a 1 GB heap and stopped this
        // channel. Dead letters are few; small polls of at most one record limit (Kafka still returns a
        // larger record alone) bound a batch's memory.
        values.put(incoming(deadLetters, "max.poll.records"), String.valueOf(DEAD_LETTERS_PER_POLL));
        values.put(incoming(deadLetters, "fetch.max.bytes"), String.valueOf(Topics.MAX_RECORD_BYTES));
        this.properties = Collections.unmodifiableMap(values);
    }

    /** The key of a channel attribute; channel names with dots (topic names) are quoted. */
    public static String incoming(String channel, String attribute) {
        String name = channel.contains(".") ? "\"" + channel + "\"" : channel;
        return "mp.messaging.incoming." + name + "." + attribute;
    }

    @Override
    public Set<String> getPropertyNames() {
        return properties.keySet();
    }

    @Override
    public String getValue(String propertyName) {
        return properties.get(propertyName);
    }

    @Override
    public String getName() {
        return "cryo-audit-channels";
    }

    @Override
    public int getOrdinal() {
        return 200;
    }
}
