package dev.cryo.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryo.cli.api.CliException;
import dev.cryo.cli.text.Formats;
import dev.cryo.contracts.TableId;

import java.time.Instant;
import java.util.Optional;

import static dev.cryo.cli.command.BaseCommand.instant;
import static dev.cryo.cli.command.FixCommand.LASTING_REASONS;

/**
 * Follows the fix's plan to its job: says what the governor does with it meanwhile, follows a newer
 * plan that replaces it, and ends with the job that held the table when the governor drops it.
 */
final class FixFollower {

    private final FixSession session;
    /** The job that held the table when the fix was asked for (null: none). */
    private final String heldBy;
    /** The job that holds the table while the fix's plan waits: the fix ends with it if the plan is dropped. */
    private String holdingJob;

    FixFollower(FixSession session, String heldBy) {
        this.session = session;
        this.heldBy = heldBy;
    }

    /**
     * Waits for the job of {@code planId} to finish, saying what the governor does meanwhile; when a
     * newer plan replaces it before it starts (the table changed again), follows that one. Empty
     * when the work is deferred for a lasting reason.
     */
    Optional<JsonNode> followJob(TableId tableId, String path, String firstPlanId, Instant deadline) {
        String planId = firstPlanId;
        String lastState = null;
        String announcedJob = null;
        holdingJob = heldBy;
        while (true) {
            String followed = planId;
            Optional<JsonNode> job = session.lookups.newestJob(record -> followed.equals(record.path("planId").asText()));
            if (job.isPresent()) {
                JsonNode current = job.get();
                String jobId = current.path("jobId").asText();
                if (!jobId.equals(announcedJob)) {
                    session.say("job %s started (attempt %d)", jobId, current.path("attempt").asInt(1));
                    announcedJob = jobId;
                }
                if (current.hasNonNull("finishedAt")) {
                    return job;
                }
                String progress = session.lookups.running(jobId);
                if (progress != null && !progress.equals(lastState)) {
                    session.say("running %s", progress);
                    lastState = progress;
                }
            } else {
                Waiting waiting = waiting(tableId, path, planId, deadline);
                if (waiting instanceof Waiting.Ended ended) {
                    return ended.job();
                }
                if (waiting instanceof Waiting.Replaced replaced) {
                    planId = replaced.planId();
                    continue;
                }
                String state = ((Waiting.State) waiting).text();
                if (!state.equals(lastState)) {
                    session.say("%s", state);
                    lastState = state;
                }
            }
            if (!session.now().isBefore(deadline)) {
                throw new CliException("Cannot follow the fix of " + tableId + ": no job of plan " + planId
                        + " finished within " + session.timeout + "; see ./cryo jobs and ./cryo audit --table " + tableId);
            }
            session.pause();
        }
    }

    /** Where a plan without a job stands: still waiting (said), replaced by a newer plan, or ended without one. */
    private sealed interface Waiting {
        record State(String text) implements Waiting {
        }

        record Replaced(String planId) implements Waiting {
        }

        /** The fix ends: with the job that held the table, or with none (empty). */
        record Ended(Optional<JsonNode> job) implements Waiting {
        }
    }

    /** What the governor and the planner say of a plan that has no job yet. */
    private Waiting waiting(TableId tableId, String path, String planId, Instant deadline) {
        JsonNode governor = session.lookups.governedTable(path);
        String state = null;
        for (JsonNode queued : governor.path("queued")) {
            if (!planId.equals(queued.path("planId").asText())) {
                continue;
            }
            String reason = queued.path("reason").asText(null);
            if (reason == null) {
                state = "queued at the governor";
                continue;
            }
            String retry = queued.hasNonNull("retryAfter")
                    ? ", retry after " + Formats.time(instant(queued, "retryAfter"), session.zone) : "";
            if (LASTING_REASONS.contains(reason)) {
                session.say("deferred: %s — %s%s", reason, queued.path("message").asText(), retry);
                session.result.set("deferral", queued);
                return new Waiting.Ended(Optional.empty());
            }
            state = "waiting: " + reason + " — " + queued.path("message").asText() + retry;
        }
        JsonNode lock = governor.path("lock");
        if (planId.equals(lock.path("planId").asText())) {
            return new Waiting.State("admitted: job " + lock.path("jobId").asText() + " holds the table");
        }
        if (lock.hasNonNull("jobId")) {
            // Another job (the event flow's) holds the table: if the fix's plan is dropped when it
            // ends, that job's outcome is the fix's.
            holdingJob = lock.path("jobId").asText();
        }
        return state != null ? new Waiting.State(state) : notQueued(tableId, planId, deadline);
    }

    /** A plan the governor does not queue: replaced by a newer one, dropped, or still on its way. */
    private Waiting notQueued(TableId tableId, String planId, Instant deadline) {
        JsonNode plan = session.lookups.plan(planId);
        String newer = plan.path("supersededByPlanId").asText("");
        if ("SUPERSEDED".equals(plan.path("status").asText()) && !newer.isEmpty()) {
            session.say("plan %s was replaced by newer plan %s before it started (the table changed again); following that one",
                    planId, newer);
            session.result.put("supersededBy", newer);
            return new Waiting.Replaced(newer);
        }
        Optional<JsonNode> decided = session.lookups.governorPlan(planId);
        if (decided.isEmpty() || !"superseded".equals(decided.get().path("stage").asText())) {
            return new Waiting.State("plan " + planId + " is on its way to the governor");
        }
        String why = decided.get().path("message").asText("no reason given");
        session.result.put("dropped", why);
        if (holdingJob == null) {
            // The job that made the plan stale may have started and ended between two polls.
            holdingJob = jobOnTableSince(tableId, session.started).orElse(null);
        }
        if (holdingJob == null) {
            session.say("plan %s was dropped by the governor: %s; nothing runs for this fix (run ./cryo fix again if the table"
                    + " still needs it)", planId, why);
            return new Waiting.Ended(Optional.empty());
        }
        session.say("plan %s was dropped by the governor: %s; the fix ends with the job that held the table, %s", planId, why,
                holdingJob);
        session.result.put("followedJob", holdingJob);
        return new Waiting.Ended(Optional.of(awaitJob(tableId, holdingJob, deadline)));
    }

    /**
     * The newest job on the table that was running at or after {@code since}, as the executors
     * record it; empty when none, or when the executors do not answer (said, not thrown: it only
     * adds to what the fix reports).
     */
    Optional<String> jobOnTableSince(TableId tableId, Instant since) {
        try {
            return session.lookups.newestJob(job -> tableId.toString().equals(job.path("table").asText())
                            && (instant(job, "finishedAt") == null || !instant(job, "finishedAt").isBefore(since)))
                    .map(job -> job.path("jobId").asText());
        } catch (CliException e) {
            session.say("cannot tell whether another job ran on %s meanwhile: %s", tableId, e.getMessage());
            return Optional.empty();
        }
    }

    /** Waits for a job the executors run until it finishes; its record. */
    JsonNode awaitJob(TableId tableId, String jobId, Instant deadline) {
        while (true) {
            Optional<JsonNode> job = session.lookups.job(jobId).filter(record -> record.hasNonNull("finishedAt"));
            if (job.isPresent()) {
                return job.get();
            }
            if (!session.now().isBefore(deadline)) {
                throw new CliException("Cannot follow the fix of " + tableId + ": job " + jobId + " did not finish within "
                        + session.timeout + "; see ./cryo jobs and ./cryo audit --table " + tableId);
            }
            session.pause();
        }
    }
}
