package dev.cryo.audit.domain;

import static java.util.Objects.requireNonNull;

/**
 * A stretch of the chain whose rows were archived (their partition detached): the links that let
 * verification step over it.
 *
 * @param name the archived partition
 * @param firstId its first row
 * @param lastId its last row
 * @param firstPreviousHash the previous hash its first row stored
 * @param lastHash the hash of its last row
 */
public record ArchivedRange(String name, long firstId, long lastId, String firstPreviousHash, String lastHash) {
    public ArchivedRange {
        requireNonNull(name, "name is null");
        requireNonNull(firstPreviousHash, "firstPreviousHash is null");
        requireNonNull(lastHash, "lastHash is null");
        if (lastId < firstId) {
            throw new IllegalArgumentException("Cannot describe archived range " + name + ": last id " + lastId
                    + " is before first id " + firstId);
        }
    }

    public long rowCount() {
        return lastId - firstId + 1;
    }
}
