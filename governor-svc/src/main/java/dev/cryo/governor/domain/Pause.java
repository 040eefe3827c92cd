package dev.cryo.governor.domain;

import java.time.Instant;

import static java.util.Objects.requireNonNull;

/**
 * An operator stopped admissions for the tables a pattern matches, until the pause is lifted.
 *
 * @param id the pause's id (to lift it)
 * @param pattern the tables it holds
 * @param reason why, in the operator's words
 * @param pausedBy who paused
 * @param pausedAt when
 */
public record Pause(String id, TablePattern pattern, String reason, String pausedBy, Instant pausedAt) {
    public Pause {
        requireNonNull(id, "id is null");
        requireNonNull(pattern, "pattern is null");
        requireNonNull(reason, "reason is null");
        requireNonNull(pausedBy, "pausedBy is null");
        requireNonNull(pausedAt, "pausedAt is null");
    }
}
