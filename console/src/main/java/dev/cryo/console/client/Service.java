package dev.cryo.console.client;

import java.util.Locale;

/** The services whose REST APIs the console reads, by the name an operator knows them under. */
public enum Service {
    SCANNER, SCORER, PLANNER, GOVERNOR, EXECUTOR, AUDIT;

    /** The service's name, e.g. {@code scorer}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return id();
    }
}
