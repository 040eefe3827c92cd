package dev.cryo.platform.security;

/**
 * The two roles of Cryo. Read-only views are open unless {@code cryo.security.open-reads=false};
 * everything that changes state (pause, fix now, replay, policy edits, dead-letter re-drive)
 * requires {@link #OPERATOR}. An operator is also a viewer.
 */
public final class Roles {
    public static final String OPERATOR = "operator";
    public static final String VIEWER = "viewer";

    private Roles() {
    }
}
