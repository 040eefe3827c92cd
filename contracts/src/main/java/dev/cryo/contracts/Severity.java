package dev.cryo.contracts;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Locale;

/** How bad a finding is, and what it costs: critical −20 points, warning −8. */
public enum Severity {
    WARNING(8), CRITICAL(20);

    private final int points;

    Severity(int points) {
        this.points = points;
    }

    /** Points this severity costs the score. */
    public int points() {
        return points;
    }

    @JsonValue
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static Severity fromId(String id) {
        return valueOf(id.toUpperCase(Locale.ROOT));
    }
}
