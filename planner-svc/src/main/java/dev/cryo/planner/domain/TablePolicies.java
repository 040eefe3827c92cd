package dev.cryo.planner.domain;

import dev.cryo.contracts.OrphanAgeFloors;
import dev.cryo.contracts.TableId;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * The base policy and its overrides per table glob ({@code *} matches any run of characters, dots
 * included; {@code ?} one character). When several patterns match a table, the most specific one
 * wins: the one with the most literal characters, then the alphabetically first, so the outcome
 * never depends on the order of configuration keys. Every combination is validated up front, so
 * a bad override fails at startup rather than at the first plan; that includes the orphan age floor,
 * which the executor would refuse under {@link OrphanAgeFloors#MINIMUM} unless unsafe floors are allowed
 * (a plan it refuses would fail every job).
 */
public final class TablePolicies {

    private final PlanningPolicy base;
    private final List<Rule> rules;

    private record Rule(String glob, Pattern pattern, int literalCharacters, PlanningPolicy policy) {
    }

    public TablePolicies(PlanningPolicy base, Map<String, PolicyOverride> overridesByGlob,
                         OrphanAgeFloors.UnsafeFloors unsafeFloors) {
        this.base = requireNonNull(base, "base is null");
        requireNonNull(overridesByGlob, "overridesByGlob is null");
        requireNonNull(unsafeFloors, "unsafeFloors is null");
        OrphanAgeFloors.check(base.orphanAgeFloor(), unsafeFloors, "cryo.planner.orphan-age-floor");
        List<Rule> sorted = new ArrayList<>();
        for (Map.Entry<String, PolicyOverride> entry : new LinkedHashMap<>(overridesByGlob).entrySet()) {
            String glob = requireNonNull(entry.getKey(), "glob is null");
            PlanningPolicy policy;
            try {
                policy = entry.getValue().applyTo(base);
                OrphanAgeFloors.check(policy.orphanAgeFloor(), unsafeFloors, "cryo.planner.orphan-age-floor");
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(e.getMessage() + " in cryo.planner.policies.\"" + glob + "\"", e);
            }
            sorted.add(new Rule(glob, compile(glob), glob.replace("*", "").replace("?", "").length(), policy));
        }
        sorted.sort(Comparator.comparingInt(Rule::literalCharacters).reversed().thenComparing(Rule::glob));
        this.rules = List.copyOf(sorted);
    }

    /** Only the base policy, with the minimum orphan age floor enforced. */
    public static TablePolicies of(PlanningPolicy base) {
        return new TablePolicies(base, Map.of(), OrphanAgeFloors.UnsafeFloors.REFUSED);
    }

    /** The policy of a table: the most specific matching pattern's, else the base policy. */
    public PlanningPolicy policyFor(TableId table) {
        String id = table.toString();
        return rules.stream().filter(rule -> rule.pattern().matcher(id).matches()).findFirst()
                .map(Rule::policy).orElse(base);
    }

    private static Pattern compile(String glob) {
        if (glob.isBlank()) {
            throw new IllegalArgumentException("Cannot use a blank table pattern in cryo.planner.policies");
        }
        StringBuilder regex = new StringBuilder();
        for (char character : glob.toCharArray()) {
            switch (character) {
                case '*' -> regex.append(".*");
                case '?' -> regex.append('.');
                default -> regex.append(Pattern.quote(String.valueOf(character)));
            }
        }
        return Pattern.compile(regex.toString());
    }
}
