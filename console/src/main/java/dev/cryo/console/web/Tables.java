package dev.cryo.console.web;

import dev.cryo.console.domain.InvalidInputException;
import dev.cryo.contracts.TableId;

/** Table ids from URLs. */
final class Tables {

    /** The id in its canonical form. */
    static String valid(String table) {
        try {
            return TableId.parse(table).toString();
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new InvalidInputException("Cannot show table: " + (e.getMessage() == null
                    ? "the address names no table" : e.getMessage()));
        }
    }

    /** A filter text from a query parameter: blank is no filter; very long text is refused. */
    static String filter(String parameter, String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        if (value.length() > 200) {
            throw new InvalidInputException("Cannot filter by " + parameter + ": the text is longer than 200 characters");
        }
        return value.trim();
    }

    /** A local path to return to after signing in: only this console's own pages, never another site. */
    static String localPath(String next) {
        if (next == null || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")
                || next.length() > 2000 || next.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            return "/";
        }
        return next;
    }

    private Tables() {
    }
}
