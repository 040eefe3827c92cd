package dev.cryo.audit.domain;

import java.util.Arrays;

import static java.util.Objects.requireNonNull;

/**
 * One Kafka record header, as it arrived.
 *
 * @param name the header name
 * @param value its bytes (optional: Kafka allows null header values)
 */
public record RecordHeader(String name, byte[] value) {

    public RecordHeader {
        requireNonNull(name, "name is null");
        value = value == null ? null : value.clone();
    }

    @Override
    public byte[] value() {
        return value == null ? null : value.clone();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RecordHeader header && name.equals(header.name) && Arrays.equals(value, header.value);
    }

    @Override
    public int hashCode() {
        return 31 * name.hashCode() + Arrays.hashCode(value);
    }

    @Override
    public String toString() {
        return name + "=" + (value == null ? "null" : value.length + " bytes");
    }
}
