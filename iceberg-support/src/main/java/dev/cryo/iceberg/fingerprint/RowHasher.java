package dev.cryo.iceberg.fingerprint;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Typed values into a SHA-256 digest, reduced to 64 bits. SHA-256 rather than a faster
 * non-cryptographic hash because the JDK has it (no extra library) and it is fast enough:
 * rows are read from Parquet far slower than they are hashed.
 */
final class RowHasher {

    private final MessageDigest digest;
    private final ByteBuffer scratch = ByteBuffer.allocate(Long.BYTES);

    RowHasher() {
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    RowHasher putByte(byte value) {
        digest.update(value);
        return this;
    }

    RowHasher putBoolean(boolean value) {
        return putByte(value ? (byte) 1 : (byte) 0);
    }

    RowHasher putInt(int value) {
        scratch.clear();
        scratch.putInt(value);
        digest.update(scratch.array(), 0, Integer.BYTES);
        return this;
    }

    RowHasher putLong(long value) {
        scratch.clear();
        scratch.putLong(value);
        digest.update(scratch.array(), 0, Long.BYTES);
        return this;
    }

    RowHasher putFloat(float value) {
        return putInt(Float.floatToIntBits(value));
    }

    RowHasher putDouble(double value) {
        return putLong(Double.doubleToLongBits(value));
    }

    RowHasher putBytes(byte[] bytes) {
        digest.update(bytes);
        return this;
    }

    /** The first 64 bits of the digest. */
    long hash() {
        return ByteBuffer.wrap(digest.digest()).getLong();
    }
}
