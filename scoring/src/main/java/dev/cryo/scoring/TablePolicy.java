package dev.cryo.scoring;

import dev.cryo.contracts.Check;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * The effective policy of one table: every check's policy, and the table properties that were
 * ignored because they were invalid (reported, never fatal).
 */
public record TablePolicy(Map<Check, CheckPolicy> checks, List<String> problems) {

    public TablePolicy {
        requireNonNull(checks, "checks is null");
        if (checks.size() != Check.values().length) {
            throw new IllegalArgumentException("a table policy covers all " + Check.values().length + " checks, not "
                    + checks.size());
        }
        checks = Map.copyOf(new EnumMap<>(checks));
        problems = List.copyOf(requireNonNull(problems, "problems is null"));
    }

    /** SCORING.md's defaults, nothing overridden. */
    public static TablePolicy defaults() {
        Map<Check, CheckPolicy> checks = new EnumMap<>(Check.class);
        Arrays.stream(Check.values()).forEach(check -> checks.put(check, CheckPolicy.defaults(check)));
        return new TablePolicy(checks, List.of());
    }

    public CheckPolicy check(Check check) {
        return checks.get(check);
    }

    /** The checks' policies in the order of SCORING.md. */
    public List<CheckPolicy> inOrder() {
        return Arrays.stream(Check.values()).map(checks::get).toList();
    }
}
