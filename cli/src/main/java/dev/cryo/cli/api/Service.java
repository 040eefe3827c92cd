package dev.cryo.cli.api;

import java.util.Locale;

/** The services the command line talks to, with their default local ports (ARCHITECTURE.md). */
public enum Service {
    SCANNER(8181), SCORER(8182), PLANNER(8183), GOVERNOR(8184), EXECUTOR(8185), AUDIT(8186);

    private final int defaultPort;

    Service(int defaultPort) {
        this.defaultPort = defaultPort;
    }

    /** As people call it: {@code scorer-svc}. */
    public String displayName() {
        return name().toLowerCase(Locale.ROOT) + "-svc";
    }

    /** The environment variable that points the command line at another instance: {@code CRYO_SCORER_URL}. */
    public String urlVariable() {
        return "CRYO_" + name() + "_URL";
    }

    public String defaultUrl() {
        return "http://127.0.0.1:" + defaultPort;
    }
}
