package dev.cryo.platform.deadletter;

import java.time.Instant;

import static java.util.Objects.requireNonNull;

/**
 * One record of this service's dead-letter topic, as an operator sees it before re-driving it.
 * The value itself is not shown: it may be large, and operators read it with the audit API.
 *
 * @param id where it is in the dead-letter topic, {@code <partition>-<offset>}: what {@code redrive} takes
 * @param key the record key (the table id for Cryo events)
 * @param eventId its CloudEvents id ({@code ce_id}), null when the record carried none
 * @param eventType its CloudEvents type ({@code ce_type}), null when the record carried none
 * @param originalTopic the topic it was read from, where a re-drive publishes it again
 * @param originalPartition its partition there
 * @param originalOffset its offset there
 * @param reason why the consumer could not handle it ({@code dead-letter-reason})
 * @param deadLetteredAt when it was dead-lettered (the record's timestamp)
 * @param valueBytes size of its value
 * @param redrivenBy who re-drove it (null while it waits)
 * @param redrivenAt when it was re-driven
 * @param redrivenTo where the re-driven copy went, {@code <topic>/<partition>/<offset>}
 */
public record DeadLetter(String id, String key, String eventId, String eventType, String originalTopic,
                         Integer originalPartition, Long originalOffset, String reason, Instant deadLetteredAt,
                         int valueBytes, String redrivenBy, Instant redrivenAt, String redrivenTo) {

    public DeadLetter {
        requireNonNull(id, "id is null");
        requireNonNull(deadLetteredAt, "deadLetteredAt is null");
    }

    public boolean isRedriven() {
        return redrivenBy != null;
    }
}
