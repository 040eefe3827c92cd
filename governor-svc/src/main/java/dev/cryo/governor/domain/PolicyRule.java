package dev.cryo.governor.domain;

import dev.cryo.contracts.Engine;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * An operator's policy for the tables a pattern matches. Each setting is optional: a table takes
 * every setting from the most specific rule that sets it, and the configured default otherwise.
 *
 * @param pattern the tables it applies to
 * @param cooldown the least time between the end of one job on a table and the start of the next
 * @param windows the only times maintenance may run (absent: the rule says nothing; empty list: any time)
 * @param engine the engine jobs run on
 * @param updatedBy who set it last
 * @param updatedAt when
 */
public record PolicyRule(TablePattern pattern, Optional<Duration> cooldown, Optional<List<MaintenanceWindow>> windows,
                         Optional<Engine> engine, String updatedBy, Instant updatedAt) {
    public PolicyRule {
        requireNonNull(pattern, "pattern is null");
        requireNonNull(cooldown, "cooldown is null");
        requireNonNull(windows, "windows is null");
        windows = windows.map(List::copyOf);
        requireNonNull(engine, "engine is null");
        requireNonNull(updatedBy, "updatedBy is null");
        requireNonNull(updatedAt, "updatedAt is null");
        cooldown.ifPresent(value -> {
            if (value.isNegative()) {
                throw new InvalidPolicyException("Cannot use cooldown " + value + " for '" + pattern
                        + "': it is negative; use PT0S for none");
            }
        });
    }
}
