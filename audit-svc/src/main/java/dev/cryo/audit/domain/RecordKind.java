package dev.cryo.audit.domain;

import java.util.Arrays;
import java.util.Locale;

/** What an audit row holds. */
public enum RecordKind {
    /** A Cryo event that reads as its contract says. Stored once per CloudEvents id. */
    EVENT,
    /** A record on a Cryo topic that is not a readable Cryo event; kept raw, with the reason. */
    MALFORMED,
    /** A record of a dead-letter topic: whatever a consumer could not handle, with its reason. */
    DEAD_LETTER;

    /** The stored and API form: {@code event}, {@code malformed}, {@code dead-letter}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public static RecordKind fromId(String id) {
        return Arrays.stream(values()).filter(kind -> kind.id().equals(id)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Cannot parse record kind '" + id + "': expected one of "
                        + Arrays.stream(values()).map(RecordKind::id).toList()));
    }
}
