package dev.cryo.contracts.event;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Arrays;

/** How Cryo learned that a table changed. */
public enum ChangeSource {
    /** A writer's Iceberg MetricsReporter (the commit-reporter jar) sent its CommitReport. */
    COMMIT_REPORT("commit-report"),
    /** The catalog watcher saw a new metadata pointer. */
    WATCHER("watcher"),
    /** Someone POSTed to the scanner's notification webhook. */
    WEBHOOK("webhook"),
    /** A scheduled full pass over every table. */
    SWEEP("sweep"),
    /** An operator asked for a scan now ("fix now"). */
    MANUAL("manual"),
    /**
     * A Cryo job on the table finished: its result is scanned at once, so the planner can score
     * the job against the grade it was promised (an expiry leaves the current snapshot as it was,
     * so no watcher or commit report announces it).
     */
    JOB("job");

    private final String id;

    ChangeSource(String id) {
        this.id = id;
    }

    @JsonValue
    public String id() {
        return id;
    }

    @JsonCreator
    public static ChangeSource fromId(String id) {
        return Arrays.stream(values()).filter(source -> source.id.equals(id)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Cannot parse change source '" + id
                        + "': expected one of " + Arrays.stream(values()).map(ChangeSource::id).toList()));
    }
}
