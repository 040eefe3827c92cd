package dev.cryo.governor.domain;

import dev.cryo.contracts.TableId;

import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * A glob over table ids ({@code catalog.namespace.table}): {@code *} matches any characters
 * within one name part, {@code **} any characters across parts, {@code ?} one character within
 * a part; everything else matches itself. {@code lake.sales.*} is every table of namespace
 * {@code sales}, {@code lake.**} every table of catalog {@code lake}, {@code **} every table.
 */
public final class TablePattern {

    /** Longest accepted pattern, in characters. */
    public static final int MAX_LENGTH = 767;

    private static final Pattern UNSUPPORTED = Pattern.compile("[\\[\\]{}\\\\`\\p{Cntrl}]");

    private final String text;
    private final Pattern regex;
    private final int literalCharacters;

    private TablePattern(String text, Pattern regex, int literalCharacters) {
        this.text = text;
        this.regex = regex;
        this.literalCharacters = literalCharacters;
    }

    /**
     * Parses a pattern.
     *
     * @throws InvalidPolicyException saying what is wrong and how to write it
     */
    public static TablePattern parse(String text) {
        requireNonNull(text, "pattern is null");
        String shown = text.length() > 80 ? text.substring(0, 80) + "…" : text.replaceAll("\\p{Cntrl}", "?");
        if (text.isBlank()) {
            throw new InvalidPolicyException("Cannot use table pattern '': it is blank; write catalog.namespace.table, "
                    + "with * for any characters within a part and ** across parts");
        }
        if (text.length() > MAX_LENGTH) {
            throw new InvalidPolicyException("Cannot use table pattern '" + shown + "': it is longer than "
                    + MAX_LENGTH + " characters");
        }
        var unsupported = UNSUPPORTED.matcher(text);
        if (unsupported.find()) {
            throw new InvalidPolicyException("Cannot use table pattern '" + shown + "': '"
                    + unsupported.group().replaceAll("\\p{Cntrl}", "?")
                    + "' is not supported; use * (within a part), ** (across parts) or ? (one character)");
        }
        if (text.contains("***")) {
            throw new InvalidPolicyException("Cannot use table pattern '" + shown
                    + "': *** is not a wildcard; use * (within a part) or ** (across parts)");
        }
        String[] parts = text.split("\\.", -1);
        for (String part : parts) {
            if (part.isEmpty()) {
                throw new InvalidPolicyException("Cannot use table pattern '" + shown
                        + "': it has an empty name part; write catalog.namespace.table");
            }
        }
        if (parts.length < 3 && !text.contains("**")) {
            throw new InvalidPolicyException("Cannot use table pattern '" + shown
                    + "': it matches no table id catalog.namespace.table; add the missing parts or use **, e.g. "
                    + text + ".**");
        }
        StringBuilder regex = new StringBuilder();
        int literal = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '*' && i + 1 < text.length() && text.charAt(i + 1) == '*') {
                regex.append(".*");
                i++;
            } else if (c == '*') {
                regex.append("[^.]*");
            } else if (c == '?') {
                regex.append("[^.]");
            } else {
                regex.append(Pattern.quote(String.valueOf(c)));
                literal++;
            }
        }
        return new TablePattern(text, Pattern.compile(regex.toString()), literal);
    }

    public boolean matches(TableId table) {
        return regex.matcher(table.toString()).matches();
    }

    /** How specific the pattern is: its characters that are not wildcards. A table's most specific rule wins. */
    public int specificity() {
        return literalCharacters;
    }

    /** The pattern as written. */
    public String text() {
        return text;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof TablePattern pattern && pattern.text.equals(text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    @Override
    public String toString() {
        return text;
    }
}
