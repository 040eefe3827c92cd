package dev.cryo.console.domain;

import java.util.Arrays;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What an action did, shown once on the page it redirects to. The redirect carries only the notice's
 * id and a reference (an event or pause id), never free text, so a link cannot make the console say
 * something it did not do.
 */
public enum Notice {
    SIGNED_IN("signed-in", "Signed in as an operator: actions are enabled."),
    SIGNED_OUT("signed-out", "Signed out."),
    READS_CLOSED("reads-closed", "This Cryo closes its reads (cryo.security.open-reads=false): sign in with an "
            + "operator's token to see its tables."),
    FIX_REQUESTED("fix-requested", "Fix requested: the scanner published change %s. The scan, grade, plan and job "
            + "follow below as they happen."),
    PAUSED("paused", "Paused: the governor admits no job for this table until it is resumed (pause %s)."),
    RESUMED("resumed", "Resumed: the governor admits jobs for the tables of pause %s again."),
    POLICY_SAVED("policy-saved", "Policy saved for %s."),
    POLICY_REMOVED("policy-removed", "The table's own policy was removed: %s follows broader patterns and defaults again.");

    private static final Pattern REFERENCE = Pattern.compile("[A-Za-z0-9._:*?-]{1,200}");

    private final String id;
    private final String text;

    Notice(String id, String text) {
        this.id = id;
        this.text = text;
    }

    public String id() {
        return id;
    }

    /** The notice of a redirect's parameters; none for unknown ids. */
    public static Optional<Notice> fromId(String id) {
        return Arrays.stream(values()).filter(notice -> notice.id.equals(id)).findFirst();
    }

    /** The sentence, with the reference in it when it is well-formed (ids, table ids), else without it. */
    public String text(String reference) {
        if (!text.contains("%s")) {
            return text;
        }
        String shown = reference != null && REFERENCE.matcher(reference).matches() ? reference : "(unknown)";
        return String.format(text, shown);
    }
}
