package dev.cryo.audit.domain;

import static java.util.Objects.requireNonNull;

/**
 * A link of the chain that does not hold.
 *
 * @param id the row (for missing rows: the first missing id)
 * @param problem what is wrong, for people
 * @param expected the hash verification expected
 * @param stored the hash the store holds
 */
public record ChainBreak(long id, String problem, String expected, String stored) {
    public ChainBreak {
        requireNonNull(problem, "problem is null");
    }
}
