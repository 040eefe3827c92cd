package dev.cryo.iceberg.fingerprint;

import net.jpountz.xxhash.XXHash64;
import net.jpountz.xxhash.XXHashFactory;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Typed values of one row, laid out in a reusable buffer and hashed at once with XXH64. A
 * fingerprint guards against maintenance bugs, not against an adversary, so a fast
 * non-cryptographic hash is enough; and since every rewritten row is hashed twice, before and
 * after, the hash's speed shows in the rewrite's CPU time: one call over a row's bytes is far
 * cheaper than feeding a digest value by value. Not thread-safe: one per thread.
 */
final class RowHasher {

    private static final long SEED = 0x63727930; // "cry0"
    /** The pure-Java implementation: on a heap array it beats the JNI one, which pays for the call. */
    private static final XXHash64 XXH64 = XXHashFactory.fastestJavaInstance().hash64();
    private static final int INITIAL_BYTES = 512;
    /** A row with a huge value grows the buffer; it shrinks back afterwards, so that it is not kept. */
    private static final int KEPT_BYTES = 1 << 20;
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private byte[] buffer = new byte[INITIAL_BYTES];
    private int length;

    RowHasher putByte(byte value) {
        room(1);
        buffer[length++] = value;
        return this;
    }

    RowHasher putBoolean(boolean value) {
        return putByte(value ? (byte) 1 : (byte) 0);
    }

    RowHasher putInt(int value) {
        room(Integer.BYTES);
        INT.set(buffer, length, value);
        length += Integer.BYTES;
        return this;
    }

    RowHasher putLong(long value) {
        room(Long.BYTES);
        LONG.set(buffer, length, value);
        length += Long.BYTES;
        return this;
    }

    RowHasher putFloat(float value) {
        return putInt(Float.floatToIntBits(value));
    }

    RowHasher putDouble(double value) {
        return putLong(Double.doubleToLongBits(value));
    }

    /** Bytes preceded by their length, so that two values can never run into each other. */
    RowHasher putBytes(byte[] bytes) {
        putInt(bytes.length);
        room(bytes.length);
        System.arraycopy(bytes, 0, buffer, length, bytes.length);
        length += bytes.length;
        return this;
    }

    /** A string as its UTF-8 bytes, preceded by their length. */
    RowHasher putString(String value) {
        return putBytes(value.getBytes(StandardCharsets.UTF_8));
    }

    /** The hash of what was put since the last call; starts a new row. */
    long hash() {
        long hash = XXH64.hash(buffer, 0, length, SEED);
        length = 0;
        if (buffer.length > KEPT_BYTES) {
            buffer = new byte[INITIAL_BYTES];
        }
        return hash;
    }

    private void room(int bytes) {
        if (bytes > buffer.length - length) {
            buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, Math.addExact(length, bytes)));
        }
    }
}
