package dev.cryo.scoring;

import static java.util.Objects.requireNonNull;

/**
 * Where a policy value came from, in order of precedence (highest last): the SCORING.md default,
 * the global configuration, a table glob pattern in the configuration, an Iceberg table property.
 * {@code GRADED} stands outside that order: a value read back from a published grading's limits,
 * whose layers the scorer already resolved.
 *
 * @param kind which layer
 * @param detail the pattern or the table property key (null for default and global)
 */
public record Source(Kind kind, String detail) {

    /** The layers of a policy. */
    public enum Kind { DEFAULT, GLOBAL, PATTERN, TABLE_PROPERTY, GRADED }

    public static final Source DEFAULT = new Source(Kind.DEFAULT, null);
    public static final Source GLOBAL = new Source(Kind.GLOBAL, null);
    public static final Source GRADED = new Source(Kind.GRADED, null);

    public Source {
        requireNonNull(kind, "kind is null");
        if ((kind == Kind.PATTERN || kind == Kind.TABLE_PROPERTY) && (detail == null || detail.isBlank())) {
            throw new IllegalArgumentException("a " + kind + " source needs its pattern or key");
        }
    }

    public static Source pattern(String glob) {
        return new Source(Kind.PATTERN, glob);
    }

    public static Source tableProperty(String key) {
        return new Source(Kind.TABLE_PROPERTY, key);
    }

    /** {@code default}, {@code global}, {@code pattern:<glob>} or {@code table-property:<key>}. */
    @Override
    public String toString() {
        return switch (kind) {
            case DEFAULT -> "default";
            case GLOBAL -> "global";
            case PATTERN -> "pattern:" + detail;
            case TABLE_PROPERTY -> "table-property:" + detail;
            case GRADED -> "graded";
        };
    }
}
