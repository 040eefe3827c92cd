package dev.cryo.platform.security;

import io.quarkus.security.identity.SecurityIdentity;

/** The actor string Cryo records for a caller: {@code operator:alice}, or {@code anonymous}. */
public final class Actors {

    public static String of(SecurityIdentity identity) {
        if (identity == null || identity.isAnonymous()) {
            return "anonymous";
        }
        String role = identity.hasRole(Roles.OPERATOR) ? Roles.OPERATOR : Roles.VIEWER;
        return role + ":" + identity.getPrincipal().getName();
    }

    private Actors() {
    }
}
