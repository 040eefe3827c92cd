package dev.cryo.governor.rest;

import java.time.Instant;
import java.util.List;

/** The JSON bodies of the governor's API. */
public final class Views {

    /** POST /api/v1/pauses. */
    public record PauseRequest(String pattern, String reason) {
    }

    public record PauseView(String id, String pattern, String reason, String pausedBy, Instant pausedAt) {
    }

    /**
     * A new pause, with the jobs it revoked: they held a table it matches, and their executors do
     * not start them or stop them before their next step (cancelled, TABLE_PAUSED).
     */
    public record PauseCreated(String id, String pattern, String reason, String pausedBy, Instant pausedAt,
                               List<String> revokedJobs) {
    }

    /**
     * PUT /api/v1/policies/{pattern}: each field optional; absent leaves the setting to broader
     * patterns or the default.
     *
     * @param cooldown ISO-8601 duration, e.g. PT30M
     * @param windows maintenance windows; an empty list means "any time"
     * @param engine native, trino or spark
     */
    public record PolicyRequest(String cooldown, List<String> windows, String engine) {
    }

    public record PolicyView(String pattern, String cooldown, List<String> windows, String engine, String updatedBy,
                             Instant updatedAt) {
    }

    /** PUT /api/v1/engines/{engine}: each field optional, absent keeps the current value. */
    public record EngineRequest(Integer slots, Integer maxForeignQueries) {
    }

    /**
     * @param lastLoad what the last decision on the engine saw (null before the first)
     */
    public record EngineView(String engine, int slots, int slotsInUse, int maxForeignQueries, LoadView lastLoad,
                             String updatedBy, Instant updatedAt) {
    }

    /**
     * @param foreignQueries running and queued queries that are not Cryo's (null: not measured, or unreadable)
     * @param problem why it could not be read
     */
    public record LoadView(Integer foreignQueries, int limit, boolean overLimit, String problem, Instant observedAt) {
    }

    public record QueueView(List<JobView> admitted, List<JobView> running, List<WaitingView> deferred) {
    }

    /**
     * A job that holds its table.
     *
     * @param note how it got here, e.g. re-admitted after its lease ended
     */
    public record JobView(String jobId, String planId, String table, String engine, int slot, int attempt,
                          Instant admittedAt, String admittedBy, Instant leaseExpiresAt, Instant startedAt,
                          String executorId, Instant lastHeartbeatAt, String operation, Integer chunksDone,
                          Integer chunksTotal, String note) {
    }

    /**
     * A plan that waits.
     *
     * @param reason the reason code of its last deferral (null: not decided yet)
     * @param retryAfter the earliest time it can run (null: only an event, such as a resume, can help)
     */
    public record WaitingView(String planId, String table, int score, Instant plannedAt, Instant receivedAt,
                              String reason, String message, Instant retryAfter, Instant deferredAt, String engine,
                              String supersedesPlanId) {
    }

    public record LockView(String table, String jobId, String planId, Instant leaseExpiresAt) {
    }

    /**
     * Everything about one table.
     *
     * @param pausedBy the pause that holds it (null: not paused)
     * @param rules the policy patterns that match it, most specific first
     * @param lastJobFinishedAt when its last job finished (null: never)
     * @param failures its latest jobs that failed in a row with the same lasting error (null: none)
     */
    public record TableView(String table, PauseView pausedBy, String cooldown, List<String> windows, String engine,
                            List<String> rules, LockView lock, Instant lastJobFinishedAt, List<WaitingView> queued,
                            FailuresView failures) {
    }

    /**
     * Jobs that failed in a row with the same error a retry does not cure.
     *
     * @param blocked whether the table waits for an operator's resume ({@code ./cryo resume <table>})
     */
    public record FailuresView(int failures, int maxAttempts, boolean blocked, String errorCode, String message,
                               Instant lastFailedAt) {
    }

    private Views() {
    }
}
