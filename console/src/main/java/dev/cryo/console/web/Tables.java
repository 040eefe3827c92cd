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
