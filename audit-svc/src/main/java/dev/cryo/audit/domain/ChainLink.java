package dev.cryo.audit.domain;

import static java.util.Objects.requireNonNull;

/**
 * One stored row as the chain sees it.
 *
 * @param id its place in the chain (1, 2, 3, ...)
 * @param previousHash the stored hash of the row before
 * @param rowHash its stored hash
 * @param recomputedHash {@link Hashes#rowHash} of its stored previous hash and its content as it is now
 */
public record ChainLink(long id, String previousHash, String rowHash, String recomputedHash) {
    public ChainLink {
        requireNonNull(previousHash, "previousHash is null");
        requireNonNull(rowHash, "rowHash is null");
        requireNonNull(recomputedHash, "recomputedHash is null");
    }
}
