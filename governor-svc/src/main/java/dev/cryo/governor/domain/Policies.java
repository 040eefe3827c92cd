package dev.cryo.governor.domain;

import dev.cryo.contracts.Engine;
import dev.cryo.contracts.TableId;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Resolves a table's policy: paused when any pause matches it (the most specific one is named);
 * each setting from the most specific rule that sets it, else the default.
 */
public final class Policies {

    private static final Comparator<PolicyRule> MOST_SPECIFIC_RULE_FIRST = Comparator
            .comparingInt((PolicyRule rule) -> rule.pattern().specificity()).reversed()
            .thenComparing(rule -> rule.pattern().text());

    private static final Comparator<Pause> MOST_SPECIFIC_PAUSE_FIRST = Comparator
            .comparingInt((Pause pause) -> pause.pattern().specificity()).reversed()
            .thenComparing(Pause::pausedAt)
            .thenComparing(Pause::id);

    public static TablePolicy resolve(TableId table, List<Pause> pauses, List<PolicyRule> rules,
                                      Duration defaultCooldown, Engine defaultEngine) {
        List<PolicyRule> matching = rules.stream()
                .filter(rule -> rule.pattern().matches(table))
                .sorted(MOST_SPECIFIC_RULE_FIRST)
                .toList();
        Duration cooldown = matching.stream().map(PolicyRule::cooldown).flatMap(Optional::stream)
                .findFirst().orElse(defaultCooldown);
        List<MaintenanceWindow> windows = matching.stream().map(PolicyRule::windows).flatMap(Optional::stream)
                .findFirst().orElse(List.of());
        Engine engine = matching.stream().map(PolicyRule::engine).flatMap(Optional::stream)
                .findFirst().orElse(defaultEngine);
        Optional<Pause> pause = pauses.stream()
                .filter(candidate -> candidate.pattern().matches(table))
                .min(MOST_SPECIFIC_PAUSE_FIRST);
        return new TablePolicy(pause, cooldown, windows, engine,
                matching.stream().map(rule -> rule.pattern().text()).toList());
    }

    private Policies() {
    }
}
