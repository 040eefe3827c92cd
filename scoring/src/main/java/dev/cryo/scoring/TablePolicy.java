package dev.cryo.scoring;

import dev.cryo.contracts.Check;
import dev.cryo.contracts.event.CheckLimits;

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

    /**
     * The policy a published grading was judged by, from its limits: the planner grades the table
     * its plan predicts with it. Every value is marked {@link Source#GRADED}.
     *
     * @throws IllegalArgumentException when the limits do not name every check exactly once
     */
    public static TablePolicy graded(List<CheckLimits> limits) {
        Map<Check, CheckPolicy> checks = new EnumMap<>(Check.class);
        for (CheckLimits limit : limits) {
            Map<Setting, Sourced<Double>> values = new EnumMap<>(Setting.class);
            put(values, Setting.WARNING, limit.warning());
            put(values, Setting.CRITICAL, limit.critical());
            put(values, Setting.WARNING_BYTES, limit.warningBytes());
            put(values, Setting.CRITICAL_BYTES, limit.criticalBytes());
            if (checks.put(limit.check(), new CheckPolicy(limit.check(), new Sourced<>(limit.enabled(), Source.GRADED, null),
                    values)) != null) {
                throw new IllegalArgumentException("Cannot read the limits of a grading: " + limit.check().id()
                        + " appears twice");
            }
        }
        if (checks.size() != Check.values().length) {
            throw new IllegalArgumentException("Cannot read the limits of a grading: they name " + checks.size()
                    + " of the " + Check.values().length + " checks");
        }
        return new TablePolicy(checks, List.of());
    }

    /** Every check's limits before size scaling, in the order of SCORING.md, as a grading names them. */
    public List<CheckLimits> limits() {
        return inOrder().stream().map(policy -> new CheckLimits(policy.check(), policy.isEnabled(),
                value(policy, Setting.WARNING), value(policy, Setting.CRITICAL), value(policy, Setting.WARNING_BYTES),
                value(policy, Setting.CRITICAL_BYTES))).toList();
    }

    private static void put(Map<Setting, Sourced<Double>> values, Setting setting, Double value) {
        if (value != null) {
            values.put(setting, new Sourced<>(value, Source.GRADED, null));
        }
    }

    private static Double value(CheckPolicy policy, Setting setting) {
        return policy.limit(setting).map(Sourced::value).orElse(null);
    }

    public CheckPolicy check(Check check) {
        return checks.get(check);
    }

    /** The checks' policies in the order of SCORING.md. */
    public List<CheckPolicy> inOrder() {
        return Arrays.stream(Check.values()).map(checks::get).toList();
    }
}
