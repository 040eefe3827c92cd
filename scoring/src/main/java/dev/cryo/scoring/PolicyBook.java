package dev.cryo.scoring;

import dev.cryo.contracts.Check;
import dev.cryo.contracts.TableId;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * Every override of the SCORING.md defaults, and the effective policy of a table.
 *
 * <p>Each setting of each check (enabled, warning, critical, and for orphan-files the byte limits)
 * is resolved on its own, highest precedence first: the table's Iceberg properties
 * {@code cryo.<check>.<setting>}, then the most specific configured glob pattern matching the
 * table, then the global configuration, then the default.
 *
 * <p>Configured overrides are validated when the book is built (the service refuses to start with
 * an invalid one). Table properties come with every scan and are never fatal: when one of a
 * check's table properties is invalid, all of that check's table properties are ignored, the check
 * keeps its configured policy, and the problem is reported in {@link TablePolicy#problems()}.
 *
 * <p>Patterns use {@code *} (any characters, dots included) and {@code ?} (one character) and are
 * matched against both {@code catalog.namespace.table} and {@code namespace.table}, since people
 * write {@code analytics.*}. When several match, the one with the most literal characters wins as a
 * whole (then the alphabetically first); the settings it leaves unset come from the global layer.
 */
public final class PolicyBook {

    /** Prefix of the table properties the scorer reads: {@code cryo.<check>.<setting>}. */
    public static final String TABLE_PROPERTY_PREFIX = "cryo.";

    private final Map<Check, CheckOverride> global;
    private final List<PatternPolicy> patterns;

    private PolicyBook(Map<Check, CheckOverride> global, List<PatternPolicy> patterns) {
        this.global = Map.copyOf(global);
        this.patterns = patterns.stream()
                .sorted(Comparator.comparingInt(PatternPolicy::literalCharacters).reversed()
                        .thenComparing(PatternPolicy::glob))
                .toList();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** No overrides: SCORING.md as written (table properties still apply). */
    public static PolicyBook defaults() {
        return builder().build();
    }

    /** The configured patterns, most specific first. */
    public List<String> patterns() {
        return patterns.stream().map(PatternPolicy::glob).toList();
    }

    /** The pattern whose overrides apply to a table, if any matches. */
    public Optional<String> patternFor(TableId table) {
        return matchingPattern(table).map(PatternPolicy::glob);
    }

    /** The effective policy of a table with these Iceberg table properties. */
    public TablePolicy effectiveFor(TableId table, Map<String, String> tableProperties) {
        requireNonNull(table, "table is null");
        requireNonNull(tableProperties, "tableProperties is null");
        Map<Check, CheckOverride> patternOverrides = matchingPattern(table).map(PatternPolicy::overrides).orElse(Map.of());
        List<String> problems = new ArrayList<>();
        Map<Check, CheckOverride> tableOverrides = readTableProperties(tableProperties, problems);
        Map<Check, CheckPolicy> checks = new EnumMap<>(Check.class);
        for (Check check : Check.values()) {
            CheckPolicy configured = apply(apply(CheckPolicy.defaults(check), global.get(check)), patternOverrides.get(check));
            CheckPolicy effective = configured;
            CheckOverride fromTable = tableOverrides.get(check);
            if (fromTable != null) {
                try {
                    effective = checkOrder(apply(configured, fromTable));
                } catch (InvalidPolicyException e) {
                    problems.add(ignored(check, e));
                }
            }
            checks.put(check, effective);
        }
        return new TablePolicy(checks, problems);
    }

    private Optional<PatternPolicy> matchingPattern(TableId table) {
        return patterns.stream().filter(pattern -> pattern.matches(table)).findFirst();
    }

    private static Map<Check, CheckOverride> readTableProperties(Map<String, String> properties, List<String> problems) {
        Map<Check, Map<Setting, Sourced<String>>> raw = new EnumMap<>(Check.class);
        Map<Check, String> invalid = new EnumMap<>(Check.class);
        properties.forEach((key, value) -> {
            if (!key.startsWith(TABLE_PROPERTY_PREFIX)) {
                return;
            }
            String rest = key.substring(TABLE_PROPERTY_PREFIX.length());
            int dot = rest.lastIndexOf('.');
            if (dot < 0) {
                return;
            }
            String checkId = rest.substring(0, dot);
            String settingKey = rest.substring(dot + 1);
            Optional<Check> check = checkById(checkId);
            Optional<Setting> setting = Setting.fromKey(settingKey);
            if (check.isEmpty()) {
                // Other services read cryo.* properties too (cryo.<feature>.enabled, say); only a limit key
                // shaped like ours is a typo worth reporting.
                if (setting.isPresent() && setting.get() != Setting.ENABLED) {
                    problems.add("Ignoring table property " + key + ": unknown check '" + checkId + "'; expected one of "
                            + checkIds());
                }
                return;
            }
            if (setting.isEmpty() || !CheckSpec.of(check.get()).settings().contains(setting.get())) {
                invalid.putIfAbsent(check.get(), "Cannot use " + key + ": " + check.get().id() + " has no setting '"
                        + settingKey + "'; expected one of " + settingKeys(CheckSpec.of(check.get())));
                return;
            }
            raw.computeIfAbsent(check.get(), ignored -> new EnumMap<>(Setting.class))
                    .put(setting.get(), new Sourced<>(value, Source.tableProperty(key), key));
        });
        Map<Check, CheckOverride> overrides = new EnumMap<>(Check.class);
        for (Check check : Check.values()) {
            if (invalid.containsKey(check)) {
                problems.add(ignored(check, new InvalidPolicyException(invalid.get(check))));
                continue;
            }
            if (raw.containsKey(check)) {
                try {
                    overrides.put(check, CheckOverride.parse(CheckSpec.of(check), raw.get(check)));
                } catch (InvalidPolicyException e) {
                    problems.add(ignored(check, e));
                }
            }
        }
        return overrides;
    }

    private static String ignored(Check check, InvalidPolicyException reason) {
        return reason.getMessage() + ". All cryo." + check.id() + ".* table properties are ignored; " + check.id()
                + " uses its configured policy";
    }

    private static CheckPolicy apply(CheckPolicy policy, CheckOverride override) {
        if (override == null) {
            return policy;
        }
        Map<Setting, Sourced<Double>> limits = new EnumMap<>(Setting.class);
        limits.putAll(policy.limits());
        limits.putAll(override.limits());
        return new CheckPolicy(policy.check(), override.enabled() != null ? override.enabled() : policy.enabled(), limits);
    }

    private static CheckPolicy checkOrder(CheckPolicy policy) {
        checkOrder(policy, Setting.WARNING, Setting.CRITICAL);
        checkOrder(policy, Setting.WARNING_BYTES, Setting.CRITICAL_BYTES);
        return policy;
    }

    private static void checkOrder(CheckPolicy policy, Setting lower, Setting upper) {
        Optional<Sourced<Double>> warning = policy.limit(lower);
        Optional<Sourced<Double>> critical = policy.limit(upper);
        if (warning.isEmpty() || critical.isEmpty() || warning.get().value() <= critical.get().value()) {
            return;
        }
        LimitUnit unit = policy.spec().unitOf(lower);
        // Blame the value of the higher-precedence layer: that is the one the operator just wrote.
        Sourced<Double> blamed = warning.get().source().kind().compareTo(critical.get().source().kind()) >= 0
                ? warning.get() : critical.get();
        throw new InvalidPolicyException("Cannot use " + blamed.origin() + "=" + unit.format(blamed.value())
                + ": the " + lower.key() + " limit " + unit.format(warning.get().value()) + " (" + warning.get().origin()
                + ") is above the " + upper.key() + " limit " + unit.format(critical.get().value()) + " ("
                + critical.get().origin() + ") of " + policy.check().id() + "; a check warns before it turns critical");
    }

    static Optional<Check> checkById(String id) {
        return Arrays.stream(Check.values()).filter(check -> check.id().equals(id)).findFirst();
    }

    private static List<String> checkIds() {
        return Arrays.stream(Check.values()).map(Check::id).toList();
    }

    private static List<String> settingKeys(CheckSpec spec) {
        return spec.settings().stream().map(Setting::key).toList();
    }

    /** One layer's overrides of one check; null fields are not set by that layer. */
    record CheckOverride(Sourced<Boolean> enabled, Map<Setting, Sourced<Double>> limits) {
        CheckOverride {
            limits = Map.copyOf(limits);
        }

        static CheckOverride parse(CheckSpec spec, Map<Setting, Sourced<String>> raw) {
            Sourced<Boolean> enabled = null;
            Map<Setting, Sourced<Double>> limits = new EnumMap<>(Setting.class);
            for (Map.Entry<Setting, Sourced<String>> entry : raw.entrySet()) {
                Sourced<String> text = entry.getValue();
                String value = text.value().trim();
                if (entry.getKey() == Setting.ENABLED) {
                    if (!value.equals("true") && !value.equals("false")) {
                        throw new InvalidPolicyException("Cannot use " + text.key() + "=" + text.value()
                                + ": expected true or false");
                    }
                    enabled = new Sourced<>(Boolean.parseBoolean(value), text.source(), text.key());
                } else {
                    LimitUnit unit = spec.unitOf(entry.getKey());
                    try {
                        limits.put(entry.getKey(), new Sourced<>(unit.parse(value), text.source(), text.key()));
                    } catch (IllegalArgumentException e) {
                        throw new InvalidPolicyException("Cannot use " + text.key() + "=" + text.value() + ": "
                                + e.getMessage(), e);
                    }
                }
            }
            return new CheckOverride(enabled, limits);
        }
    }

    /** A configured glob pattern and its overrides. */
    record PatternPolicy(String glob, Pattern regex, int literalCharacters, Map<Check, CheckOverride> overrides) {
        PatternPolicy {
            overrides = Map.copyOf(overrides);
        }

        static Pattern compile(String glob) {
            StringBuilder regex = new StringBuilder();
            for (char c : glob.toCharArray()) {
                switch (c) {
                    case '*' -> regex.append(".*");
                    case '?' -> regex.append('.');
                    default -> regex.append(Pattern.quote(String.valueOf(c)));
                }
            }
            return Pattern.compile(regex.toString());
        }

        boolean matches(TableId table) {
            String qualified = table.namespaceName() + "." + table.table();
            return regex.matcher(table.toString()).matches() || regex.matcher(qualified).matches();
        }
    }

    /** Collects configured overrides; {@link #build()} validates them all. */
    public static final class Builder {

        private record Entry(String glob, String checkId, Setting setting, String value, String key) {
        }

        private final List<Entry> entries = new ArrayList<>();

        private Builder() {
        }

        /**
         * A global override.
         *
         * @param key the configuration key, named in error messages
         */
        public Builder global(String checkId, Setting setting, String value, String key) {
            entries.add(new Entry(null, checkId, setting, value, key));
            return this;
        }

        /** An override for the tables matching a glob pattern. */
        public Builder pattern(String glob, String checkId, Setting setting, String value, String key) {
            requireNonNull(glob, "glob is null");
            entries.add(new Entry(glob, checkId, setting, value, key));
            return this;
        }

        /**
         * @throws InvalidPolicyException naming the key of the first invalid override
         */
        public PolicyBook build() {
            Map<String, Map<Check, Map<Setting, Sourced<String>>>> byLayer = new LinkedHashMap<>();
            for (Entry entry : entries) {
                requireNonNull(entry.setting(), "setting is null");
                requireNonNull(entry.value(), "value is null");
                if (entry.glob() != null && entry.glob().isBlank()) {
                    throw new InvalidPolicyException("Cannot use " + entry.key() + ": the table pattern is blank");
                }
                Check check = checkById(entry.checkId()).orElseThrow(() -> new InvalidPolicyException("Cannot use "
                        + entry.key() + ": unknown check '" + entry.checkId() + "'; expected one of " + checkIds()));
                CheckSpec spec = CheckSpec.of(check);
                if (!spec.settings().contains(entry.setting())) {
                    throw new InvalidPolicyException("Cannot use " + entry.key() + ": " + check.id() + " has no setting '"
                            + entry.setting().key() + "'; expected one of " + settingKeys(spec));
                }
                Source source = entry.glob() == null ? Source.GLOBAL : Source.pattern(entry.glob());
                byLayer.computeIfAbsent(entry.glob() == null ? "" : entry.glob(), ignored -> new EnumMap<>(Check.class))
                        .computeIfAbsent(check, ignored -> new EnumMap<>(Setting.class))
                        .put(entry.setting(), new Sourced<>(entry.value(), source, entry.key()));
            }
            Map<Check, CheckOverride> global = parseLayer(byLayer.getOrDefault("", Map.of()));
            List<PatternPolicy> patterns = new ArrayList<>();
            byLayer.forEach((glob, raw) -> {
                if (!glob.isEmpty()) {
                    int literal = (int) glob.chars().filter(c -> c != '*' && c != '?').count();
                    patterns.add(new PatternPolicy(glob, PatternPolicy.compile(glob), literal, parseLayer(raw)));
                }
            });
            // Configured layers are checked together, as a table matching the pattern would see them.
            for (Check check : Check.values()) {
                CheckPolicy globally = apply(CheckPolicy.defaults(check), global.get(check));
                checkOrder(globally);
                for (PatternPolicy pattern : patterns) {
                    checkOrder(apply(globally, pattern.overrides().get(check)));
                }
            }
            return new PolicyBook(global, patterns);
        }

        private static Map<Check, CheckOverride> parseLayer(Map<Check, Map<Setting, Sourced<String>>> raw) {
            Map<Check, CheckOverride> layer = new EnumMap<>(Check.class);
            raw.forEach((check, settings) -> layer.put(check, CheckOverride.parse(CheckSpec.of(check), settings)));
            return layer;
        }
    }
}
