package dev.cryo.audit.domain;

import java.time.Instant;
import java.util.Locale;
import java.util.UUID;

import static java.util.Objects.requireNonNull;

/**
 * A rebuild or a re-publication, as recorded: who asked, what, how far it got, what it found.
 *
 * @param id the run
 * @param kind rebuild or publish
 * @param actor who asked
 * @param requestedAt when
 * @param parametersJson the request, as JSON
 * @param state queued, running, succeeded or failed
 * @param recordsTotal records it has to handle, once known (optional)
 * @param recordsDone records handled so far
 * @param message a line for people: progress, or why it failed (optional)
 * @param resultJson what it found, as JSON (optional)
 * @param updatedAt last change
 */
public record ReplayRun(UUID id, Kind kind, String actor, Instant requestedAt, String parametersJson, State state,
                        Long recordsTotal, long recordsDone, String message, String resultJson, Instant updatedAt) {

    /** What a run does. */
    public enum Kind {
        /** Reads the topics into an empty schema and compares it with the live store. */
        REBUILD,
        /** Sends stored events of a time range to cryo.replay.v1. */
        PUBLISH;

        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Kind fromId(String id) {
            return valueOf(id.toUpperCase(Locale.ROOT));
        }
    }

    /** Where a run stands. */
    public enum State {
        QUEUED, RUNNING, SUCCEEDED, FAILED;

        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static State fromId(String id) {
            return valueOf(id.toUpperCase(Locale.ROOT));
        }
    }

    public ReplayRun {
        requireNonNull(id, "id is null");
        requireNonNull(kind, "kind is null");
        requireNonNull(actor, "actor is null");
        requireNonNull(requestedAt, "requestedAt is null");
        requireNonNull(parametersJson, "parametersJson is null");
        requireNonNull(state, "state is null");
        requireNonNull(updatedAt, "updatedAt is null");
    }
}
