package dev.cryo.audit.domain;

import static java.util.Objects.requireNonNull;

/**
 * Where the chain ends, as the store's chain head records it.
 *
 * @param lastId the last row's id (0 for an empty chain)
 * @param lastHash the last row's hash ({@link Hashes#GENESIS} for an empty chain)
 */
public record ChainHead(long lastId, String lastHash) {
    public static final ChainHead EMPTY = new ChainHead(0, Hashes.GENESIS);

    public ChainHead {
        requireNonNull(lastHash, "lastHash is null");
    }
}
