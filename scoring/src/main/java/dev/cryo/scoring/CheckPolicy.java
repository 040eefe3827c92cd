package dev.cryo.scoring;

import dev.cryo.contracts.Check;

import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The effective policy of one check for one table: whether it runs and its limits before size
 * scaling, each with where it came from. A limit may be absent (missing-statistics has no
 * critical limit by default).
 */
public record CheckPolicy(Check check, Sourced<Boolean> enabled, Map<Setting, Sourced<Double>> limits) {

    public CheckPolicy {
        requireNonNull(check, "check is null");
        requireNonNull(enabled, "enabled is null");
        requireNonNull(limits, "limits is null");
        if (limits.containsKey(Setting.ENABLED)) {
            throw new IllegalArgumentException("enabled is not a limit");
        }
        limits = limits.isEmpty() ? Map.of() : Map.copyOf(new EnumMap<>(limits));
    }

    /** The defaults of SCORING.md. */
    public static CheckPolicy defaults(Check check) {
        CheckSpec spec = CheckSpec.of(check);
        Map<Setting, Sourced<Double>> limits = new EnumMap<>(Setting.class);
        for (Setting setting : spec.settings()) {
            if (setting != Setting.ENABLED && spec.defaultValue(setting) != null) {
                limits.put(setting, Sourced.byDefault(spec.defaultValue(setting)));
            }
        }
        return new CheckPolicy(check, Sourced.byDefault(true), limits);
    }

    public boolean isEnabled() {
        return enabled.value();
    }

    /** A limit before size scaling, if the check has one for that setting. */
    public Optional<Sourced<Double>> limit(Setting setting) {
        return Optional.ofNullable(limits.get(setting));
    }

    public CheckSpec spec() {
        return CheckSpec.of(check);
    }
}
