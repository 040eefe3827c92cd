package dev.cryo.audit.domain;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Whether the chain in the database still leads to its latest anchor. A row rewritten and the
 * chain recomputed after it (which only whoever holds the database can do) verifies clean on its
 * own, but changes the hash of every later row, the anchored one included.
 *
 * @param status OK, MISMATCH (the anchored row has another hash, or is gone), NONE (nothing anchored
 *               yet: rows are protected from the first anchor on) or UNAVAILABLE (the anchors could not be read)
 * @param anchor the anchor checked against (optional)
 * @param message what it means, for people
 */
public record AnchorCheck(String status, ChainAnchor anchor, String message) {

    public static final String METHOD = "kafka-anchors";

    public AnchorCheck {
        requireNonNull(status, "status is null");
        requireNonNull(message, "message is null");
    }

    public boolean broken() {
        return "MISMATCH".equals(status);
    }

    public static AnchorCheck unavailable(String why) {
        return new AnchorCheck("UNAVAILABLE", null, "cannot read the anchors: " + why
                + "; the chain was checked on its own, which a re-chain by whoever holds the database would pass");
    }

    /**
     * @param anchor the latest anchor of this store
     * @param head the chain's head in the database now
     * @param storedHash the stored hash of the anchored row (live, or the last row of an archived
     *                   month), empty when it is gone
     */
    public static AnchorCheck of(Optional<ChainAnchor> anchor, ChainHead head, Optional<String> storedHash) {
        if (anchor.isEmpty()) {
            return new AnchorCheck("NONE", null, "the chain has no anchor yet (cryo.audit.anchor.interval); its rows are"
                    + " protected against a re-chain from the first anchor on");
        }
        ChainAnchor at = anchor.get();
        String where = "row " + at.lastId() + " (anchored " + at.anchoredAt() + ")";
        if (head.lastId() < at.lastId()) {
            return new AnchorCheck("MISMATCH", at, "the chain ends at row " + head.lastId() + " but " + where
                    + " was anchored: rows were removed");
        }
        if (storedHash.isEmpty()) {
            return new AnchorCheck("MISMATCH", at, where + " is missing from the log and from the archived months");
        }
        if (!storedHash.get().equals(at.lastHash())) {
            return new AnchorCheck("MISMATCH", at, where + " has hash " + storedHash.get() + " but was anchored with "
                    + at.lastHash() + ": rows up to it were rewritten and the chain recomputed after them");
        }
        return new AnchorCheck("OK", at, "the chain leads to " + where + " with the anchored hash");
    }
}
