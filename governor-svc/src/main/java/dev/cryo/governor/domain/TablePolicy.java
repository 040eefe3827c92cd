package dev.cryo.governor.domain;

import dev.cryo.contracts.Engine;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Everything the governor's rules say about one table, resolved from pauses, policy rules and
 * defaults.
 *
 * @param pause the pause that holds the table (empty: not paused)
 * @param cooldown the least time between the end of one job and the start of the next
 * @param windows the only times maintenance may run (empty: any time)
 * @param engine the engine its jobs run on
 * @param rules the patterns of the rules that matched, most specific first (for people reading it)
 */
public record TablePolicy(Optional<Pause> pause, Duration cooldown, List<MaintenanceWindow> windows, Engine engine,
                          List<String> rules) {
    public TablePolicy {
        requireNonNull(pause, "pause is null");
        requireNonNull(cooldown, "cooldown is null");
        windows = List.copyOf(windows);
        requireNonNull(engine, "engine is null");
        rules = List.copyOf(rules);
    }

    /** A policy with the defaults only. */
    public static TablePolicy of(Duration cooldown, Engine engine) {
        return new TablePolicy(Optional.empty(), cooldown, List.of(), engine, List.of());
    }

    public TablePolicy withPause(Pause newPause) {
        return new TablePolicy(Optional.of(newPause), cooldown, windows, engine, rules);
    }

    public TablePolicy withWindows(List<MaintenanceWindow> newWindows) {
        return new TablePolicy(pause, cooldown, newWindows, engine, rules);
    }

    public TablePolicy withCooldown(Duration newCooldown) {
        return new TablePolicy(pause, newCooldown, windows, engine, rules);
    }

    public TablePolicy withEngine(Engine newEngine) {
        return new TablePolicy(pause, cooldown, windows, newEngine, rules);
    }
}
