package dev.cryo.audit.domain;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
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

    /** The value as UTF-8 text, or null when it is absent or not valid UTF-8. */
    public String text() {
        if (value == null) {
            return null;
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(value)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
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
