package dev.cryo.console.domain;

import dev.cryo.console.client.GovernorApi.EngineSlots;
import dev.cryo.console.client.GovernorApi.Queue;
import dev.cryo.console.client.GovernorApi.QueuedJob;
import dev.cryo.console.client.GovernorApi.WaitingPlan;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;

/**
 * The queue page: jobs running (with progress from their heartbeats), jobs admitted and waiting for an
 * executor, plans deferred with their reason and retry time, and each engine's slots and load.
 */
public record QueueBoard(List<JobRow> running, List<JobRow> admitted, List<WaitingRow> deferred,
                         List<EngineRow> engines) {

    /** A running job whose last heartbeat is older than this is marked: its executor may be gone. */
    public static final Duration QUIET_HEARTBEAT = Duration.ofSeconds(30);

    /**
     * A job that holds its table.
     *
     * @param progressPercent chunks done of the plan's chunks, 0..100 (null: no chunk count yet)
     * @param quiet whether its heartbeats stopped for longer than {@link #QUIET_HEARTBEAT}
     */
    public record JobRow(String jobId, String table, String engine, int slot, int attempt, String admitted,
                         String started, String executorId, String lastHeartbeat, String operation,
                         Integer chunksDone, Integer chunksTotal, Integer progressPercent, String lease, String note,
                         boolean quiet) {
    }

    /** A plan that waits. */
    public record WaitingRow(String planId, String table, int score, String reason, String message, String retry,
                             String deferred, String engine) {
    }

    /**
     * An engine's capacity.
     *
     * @param usePercent slots in use of its slots, 0..100
     * @param load what the governor last read of its load (empty: not measured for this engine)
     */
    public record EngineRow(String engine, int slots, int slotsInUse, int usePercent, String load, boolean overLimit,
                            String problem) {
    }

    public QueueBoard {
        running = List.copyOf(running);
        admitted = List.copyOf(admitted);
        deferred = List.copyOf(deferred);
        engines = List.copyOf(engines);
    }

    public static QueueBoard of(Queue queue, List<EngineSlots> engines, Instant now) {
        return new QueueBoard(
                queue.running().stream().map(job -> job(job, now)).toList(),
                queue.admitted().stream().map(job -> job(job, now)).toList(),
                queue.deferred().stream()
                        .sorted(Comparator.comparing(WaitingPlan::score).thenComparing(WaitingPlan::table))
                        .map(plan -> waiting(plan, now)).toList(),
                engines.stream().sorted(Comparator.comparing(EngineSlots::engine)).map(QueueBoard::engine).toList());
    }

    public boolean idle() {
        return running.isEmpty() && admitted.isEmpty() && deferred.isEmpty();
    }

    static JobRow job(QueuedJob job, Instant now) {
        Integer percent = null;
        if (job.chunksTotal() != null && job.chunksDone() != null && job.chunksTotal() > 0) {
            percent = (int) Math.min(100, Math.round(100.0 * job.chunksDone() / job.chunksTotal()));
        }
        boolean quiet = job.startedAt() != null && job.lastHeartbeatAt() != null
                && Duration.between(job.lastHeartbeatAt(), now).compareTo(QUIET_HEARTBEAT) > 0;
        String lease = job.leaseExpiresAt() == null ? ""
                : job.leaseExpiresAt().isAfter(now) ? "lease ends " + Formats.relative(job.leaseExpiresAt(), now)
                : "lease ended " + Formats.relative(job.leaseExpiresAt(), now);
        return new JobRow(job.jobId(), job.table(), job.engine(), job.slot(), job.attempt(),
                Formats.relative(job.admittedAt(), now), job.startedAt() == null ? "" : Formats.relative(job.startedAt(), now),
                job.executorId(), job.lastHeartbeatAt() == null ? "" : Formats.relative(job.lastHeartbeatAt(), now),
                job.operation(), job.chunksDone(), job.chunksTotal(), percent, lease, job.note(), quiet);
    }

    static WaitingRow waiting(WaitingPlan plan, Instant now) {
        String retry;
        if (plan.reason() == null) {
            retry = "not decided yet";
        } else if (plan.retryAfter() == null) {
            retry = "only an event helps (a resume, a freed slot)";
        } else if (plan.retryAfter().isAfter(now)) {
            retry = Formats.relative(plan.retryAfter(), now) + " (" + Formats.time(plan.retryAfter()) + ")";
        } else {
            retry = "due now";
        }
        return new WaitingRow(plan.planId(), plan.table(), plan.score(), plan.reason() == null ? "new" : plan.reason(),
                plan.message(), retry, plan.deferredAt() == null ? "" : Formats.relative(plan.deferredAt(), now),
                plan.engine());
    }

    static EngineRow engine(EngineSlots engine) {
        int percent = engine.slots() <= 0 ? (engine.slotsInUse() > 0 ? 100 : 0)
                : (int) Math.min(100, Math.round(100.0 * engine.slotsInUse() / engine.slots()));
        String load = "";
        boolean over = false;
        String problem = null;
        if (engine.lastLoad() != null) {
            over = engine.lastLoad().overLimit();
            problem = engine.lastLoad().problem();
            load = engine.lastLoad().foreignQueries() == null ? "load not readable"
                    : engine.lastLoad().foreignQueries() + " foreign queries (limit " + engine.lastLoad().limit() + ")";
        }
        return new EngineRow(engine.engine(), engine.slots(), engine.slotsInUse(), percent, load, over, problem);
    }
}
