package dev.cryo.iceberg.fingerprint;

/**
 * What a set of rows is, independent of how it is laid out in files: the row count and the sum
 * (modulo 2^64) of a 64-bit hash of every row. Equal fingerprints before and after a rewrite
 * mean no row was lost, added or changed (up to hash collisions, 2^-64 per changed row).
 */
public record Fingerprint(long rows, long hash) {

    public static final Fingerprint EMPTY = new Fingerprint(0, 0);

    public Fingerprint plus(Fingerprint other) {
        return new Fingerprint(rows + other.rows, hash + other.hash);
    }

    public Fingerprint minus(Fingerprint other) {
        return new Fingerprint(rows - other.rows, hash - other.hash);
    }

    @Override
    public String toString() {
        return rows + " rows, hash " + Long.toHexString(hash);
    }
}
