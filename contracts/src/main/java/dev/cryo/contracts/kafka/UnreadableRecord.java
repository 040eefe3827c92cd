package dev.cryo.contracts.kafka;

import static java.util.Objects.requireNonNull;

/**
 * What a consumer receives instead of an event when a record is not a Cryo event: why, and the
 * record's value as it came. Consumers dead-letter it with the reason; {@link CryoRecordSerializer}
 * writes the value back, cut to a size the dead-letter topic takes.
 *
 * @param reason what is wrong with the record, for the dead letter's reason
 * @param value  the record's value, as read (may be null)
 */
public record UnreadableRecord(String reason, byte[] value) {

    public UnreadableRecord {
        requireNonNull(reason, "reason is null");
    }

    @Override
    public String toString() {
        return "UnreadableRecord[" + reason + ", " + (value == null ? "no value" : value.length + " bytes") + "]";
    }
}
