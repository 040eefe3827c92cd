package dev.cryo.iceberg.orphan;

import static java.util.Objects.requireNonNull;

/** What makes a listed file impossible to tell from a referenced one: orphan removal then deletes nothing. */
public sealed interface LocationConflict {

    /** A listed file whose path a referenced file has under another scheme or authority. */
    record Scheme(String listed, String referenced) implements LocationConflict {
        public Scheme {
            requireNonNull(listed, "listed is null");
            requireNonNull(referenced, "referenced is null");
        }
    }

    /** Two spellings of one canonical path, both among the references or both in the listing. */
    record Spelling(String first, String second) implements LocationConflict {
        public Spelling {
            requireNonNull(first, "first is null");
            requireNonNull(second, "second is null");
        }
    }
}
