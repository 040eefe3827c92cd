package dev.cryo.deploy;

import java.util.List;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * A configuration key a service reads, as segments: a literal segment, {@link #ANY_SEGMENT} for a map
 * key ({@code cryo.scorer.checks.*.warning}), or {@link #ANY_SEGMENTS} for a map whose keys may
 * themselves hold dots ({@code cryo.catalogs.*.**}: any Iceberg catalog property).
 *
 * @param segments the key's parts, split at dots
 * @param origin where the key was found, for messages
 */
public record ConfigKey(List<String> segments, String origin) {

    public static final String ANY_SEGMENT = "*";
    public static final String ANY_SEGMENTS = "**";

    public ConfigKey {
        segments = List.copyOf(segments);
        requireNonNull(origin, "origin is null");
        if (segments.isEmpty()) {
            throw new IllegalArgumentException("Cannot define a configuration key without segments (" + origin + ")");
        }
    }

    /** A literal key such as {@code quarkus.http.port}; quoted segments keep their dots. */
    public static ConfigKey literal(String key, String origin) {
        return new ConfigKey(split(key), origin);
    }

    /** The key as written, wildcards included. */
    public String name() {
        return String.join(".", segments);
    }

    /** Whether a map key stands anywhere in it. */
    public boolean hasWildcard() {
        return segments.contains(ANY_SEGMENT) || segments.contains(ANY_SEGMENTS);
    }

    /** Whether a map whose keys may hold dots or dashes ends it: its environment-variable form is ambiguous. */
    public boolean endsInFreeFormMap() {
        return segments.contains(ANY_SEGMENTS);
    }

    /**
     * Whether a property name (as it may be written in an environment variable's name, e.g.
     * {@code cryo.catalogs.lake.io-impl}) is this key.
     */
    public boolean matchesPropertyName(String property) {
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < segments.size(); i++) {
            if (i > 0) {
                regex.append("\\.");
            }
            String segment = segments.get(i);
            if (segment.equals(ANY_SEGMENT)) {
                regex.append("(?:\"[^\"]+\"|[^.\"]+)");
            } else if (segment.equals(ANY_SEGMENTS)) {
                regex.append("[^\"]+");
            } else {
                regex.append(Pattern.quote(segment));
            }
        }
        return property.matches(regex.toString());
    }

    /**
     * Whether an upper-case environment variable ({@code CRYO_GOVERNOR_SLOTS_NATIVE}) is this key in
     * Quarkus' environment form: every character that is not a letter or digit becomes {@code _}, and
     * letters are upper case. A map key takes one or more {@code _}-separated words.
     */
    public boolean matchesEnvironmentName(String variable) {
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < segments.size(); i++) {
            if (i > 0) {
                regex.append('_');
            }
            String segment = segments.get(i);
            if (segment.equals(ANY_SEGMENT) || segment.equals(ANY_SEGMENTS)) {
                regex.append("_?[A-Z0-9]+(?:_+[A-Z0-9]+)*_?");
            } else {
                regex.append(Pattern.quote(EnvironmentNames.environmentForm(segment)));
            }
        }
        return variable.matches(regex.toString());
    }

    static List<String> split(String key) {
        java.util.ArrayList<String> segments = new java.util.ArrayList<>();
        StringBuilder current = new StringBuilder();
        boolean quoted = false;
        for (char c : key.toCharArray()) {
            if (c == '"') {
                quoted = !quoted;
                current.append(c);
            } else if (c == '.' && !quoted) {
                segments.add(current.toString());
                current.setLength(0);
            } else {
                current.append(c);
            }
        }
        segments.add(current.toString());
        return segments;
    }

    @Override
    public String toString() {
        return name() + " (" + origin + ")";
    }
}
