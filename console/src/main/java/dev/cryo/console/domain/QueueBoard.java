package dev.cryo.console.domain;

import dev.cryo.console.client.GovernorApi.EngineSlots;
import dev.cryo.console.client.GovernorApi.Queue;
import dev.cryo.console.client.GovernorApi.QueuedJob;
import dev.cryo.console.client.GovernorApi.WaitingPlan;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The queue page: jobs running (with progress from their heartbeats), jobs admitted and waiting for an
 * executor, plans deferred with their reason and retry time, and each engine's slots and load.
 */
public record QueueBoard(List<JobRow> running, List<JobRow> admitted, List<WaitingRow> deferred,
                         List<ReasonCount> deferredByReason, int hiddenDeferred, List<EngineRow> engines) {

    /** Deferred plans the page lists; a busy fleet can have thousands, the rest are counted. */
    public static final int MAX_DEFERRED_SHOWN = 100;

    /** How many plans wait for one reason. */
    public record ReasonCount(String reason, long plans) {
    }


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
        deferredByReason = List.copyOf(deferredByReason);
        engines = List.copyOf(engines);
    }

    /**
     * @param tables which tables to list (the page's catalog and namespace filter)
     */
    public static QueueBoard of(Queue queue, List<EngineSlots> engines, Instant now, Predicate<String> tables) {
        List<WaitingPlan> waiting = queue.deferred().stream().filter(plan -> tables.test(plan.table()))
                .sorted(Comparator.comparing(WaitingPlan::score).thenComparing(WaitingPlan::table)).toList();
        Map<String, Long> reasons = new TreeMap<>();
        waiting.forEach(plan -> reasons.merge(plan.reason() == null ? "new" : plan.reason(), 1L, Long::sum));
        return new QueueBoard(
                queue.running().stream().filter(job -> tables.test(job.table())).map(job -> job(job, now)).toList(),
                queue.admitted().stream().filter(job -> tables.test(job.table())).map(job -> job(job, now)).toList(),
                waiting.stream().limit(MAX_DEFERRED_SHOWN).map(plan -> waiting(plan, now)).toList(),
                reasons.entrySet().stream().map(entry -> new ReasonCount(entry.getKey(), entry.getValue())).toList(),
                Math.max(0, waiting.size() - MAX_DEFERRED_SHOWN),
                engines.stream().sorted(Comparator.comparing(EngineSlots::engine)).map(QueueBoard::engine).toList());
    }

    /** Deferred plans in all, listed or not. */
    public long deferredCount() {
        return deferred.size() + hiddenDeferred;
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
        if (engine.lastLoad() == null) {
            load = "not read yet";
        } else {
            over = engine.lastLoad().overLimit();
            problem = engine.lastLoad().problem();
            if (engine.lastLoad().foreignQueries() != null) {
                load = engine.lastLoad().foreignQueries() + " foreign queries (limit " + engine.lastLoad().limit() + ")";
            } else if (problem != null) {
                load = "load not readable";
            } else {
                // Native and Spark have no live load to read: their slots alone bound them.
                load = "bounded by its slots";
            }
        }
        return new EngineRow(engine.engine(), engine.slots(), engine.slotsInUse(), percent, load, over, problem);
    }
}
