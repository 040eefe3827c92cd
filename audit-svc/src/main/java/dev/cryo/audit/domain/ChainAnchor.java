package dev.cryo.audit.domain;

import java.time.Instant;

import static java.util.Objects.requireNonNull;

/**
 * The chain's head as the audit saw it, kept on {@code cryo.audit-anchors.v1} outside the
 * database: the row {@code lastId} had the hash {@code lastHash} at {@code anchoredAt}.
 *
 * @param store the chain's key: the audit schema's name, unless cryo.audit.anchor.key says otherwise
 * @param lastId the last row of the chain
 * @param lastHash its hash
 * @param anchoredAt when the head was read
 */
public record ChainAnchor(String store, long lastId, String lastHash, Instant anchoredAt) {
    public ChainAnchor {
        requireNonNull(store, "store is null");
        requireNonNull(lastHash, "lastHash is null");
        requireNonNull(anchoredAt, "anchoredAt is null");
        if (lastId < 1) {
            throw new IllegalArgumentException("an anchor names a row: lastId " + lastId);
        }
    }
}
