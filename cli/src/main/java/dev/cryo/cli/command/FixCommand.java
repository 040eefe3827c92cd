package dev.cryo.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cryo.cli.CryoCli;
import dev.cryo.cli.api.ApiClient;
import dev.cryo.cli.api.ApiError;
import dev.cryo.cli.api.CliException;
import dev.cryo.cli.api.Service;
import dev.cryo.cli.text.Formats;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.cloudevents.EventType;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code ./cryo fix <table>}: "fix now". Asks the scanner for a scan on the operator's behalf,
 * then follows the table through Cryo — grade, plan, admission, job, and the planner's score of
 * the job against the grade after it (expected against actual) — and says where it stands at
 * every step. It follows its own request: the grading and plan
 * of the chain its scan request began (their correlation id is the request's event id) and the job
 * of that plan. The event flow may grade and plan the same table meanwhile from an earlier scan;
 * those plans lack the operator's waiver of the cooldown, so following them would report their
 * deferral as the fix's. When a newer plan replaces the fix's before it starts (the table changed
 * again), the command follows that one and says so. When another job holds the table as the fix
 * is asked for (or runs on it before the fix's plan does), the fix's plan is dropped as made from
 * the snapshot before that job's commit, or its scan already finds nothing to do: either way the
 * command ends with that job's outcome.
 */
@Command(name = "fix", description = {"Fix now: scan the table and follow its grade, plan, job and new grade.",
        "Exit 0 when the table ends healthy, 1 when findings remain or the work was deferred, 2 on errors."})
public final class FixCommand extends BaseCommand {

    /** Deferrals that last: the command stops and says why instead of waiting. */
    static final Set<String> LASTING_REASONS = Set.of("paused", "blocked", "cooldown", "outside-window");

    /** How long after a job the command waits for the planner's score of it (the scan and grade after the job). */
    static final Duration SCORE_WAIT = Duration.ofSeconds(90);

    /** How far back the grade and plan histories are searched for the request's own. */
    static final int HISTORY = 20;

    @Parameters(paramLabel = "<table>", description = "catalog.namespace.table")
    String table;

    @Option(names = "--timeout", defaultValue = "PT30M", description = "Give up following after this long (default: ${DEFAULT-VALUE})")
    Duration timeout;

    @Option(names = "--poll-interval", defaultValue = "PT2S", description = "How often to ask the services (default: ${DEFAULT-VALUE})")
    Duration pollInterval;

    @Option(names = "--plan-wait", defaultValue = "PT45S",
            description = "How long a grade with findings may stay without a plan before the planner is asked why (default: ${DEFAULT-VALUE})")
    Duration planWait;

    @Option(names = "--no-wait", description = "Only ask for the scan; do not follow it")
    boolean noWait;

    private Instant started;
    private ObjectNode result;
    private FixLookups lookups;
    private FixSession session;
    /** The job that held the table when the fix was asked for (null: none). */
    private String heldBy;

    @Override
    public Integer call() {
        TableId tableId = PlanCommand.parse(table);
        String path = ApiClient.segment(tableId.toString());
        started = now();
        result = api().json().createObjectNode();
        lookups = new FixLookups(api());
        session = new FixSession(table, result, started, timeout, pollInterval, lookups, cli().clock(), progress(),
                cli().zone());
        result.put("table", tableId.toString());
        result.put("requestedAt", started.toString());
        Optional<JsonNode> before = lookups.grade(path);
        before.ifPresent(grade -> result.set("before", summary(grade)));
        heldBy = lockHolder(path).orElse(null);

        JsonNode accepted = api().postAsOperator(Service.SCANNER, "/api/v1/scans", Map.of("table", tableId.toString()));
        result.put("eventId", accepted.path("eventId").asText());
        say("asked for a scan of %s (event %s)%s", tableId, accepted.path("eventId").asText(),
                before.map(grade -> ", graded " + grade.path("grade").asText() + " " + grade.path("score").asInt() + " before").orElse(""));
        if (noWait) {
            return finish("requested", CryoCli.HEALTHY);
        }
        Instant deadline = started.plus(timeout);

        // Only the grading of the scan this request led to: the event flow grades and plans the
        // table meanwhile too (a writer's commit, the watcher), from scans that began before the
        // request, and its plans do not carry the operator's waiver of the cooldown.
        String eventId = accepted.path("eventId").asText();
        JsonNode graded = session.await("grade of the scan asked for (event " + eventId + ")", deadline,
                () -> ownGrade(path, eventId));
        result.set("graded", summary(graded));
        say("graded %s %d: %s", graded.path("grade").asText(), graded.path("score").asInt(), findings(graded));
        if (graded.path("deductions").isEmpty()) {
            return nothingToFix(tableId, path, before.orElse(graded), deadline);
        }

        Optional<JsonNode> plan = awaitPlan(path, eventId, deadline);
        if (plan.isEmpty()) {
            JsonNode preview = api().postRead(Service.PLANNER, "/api/v1/plans/preview", Map.of("table", tableId.toString()));
            List<String> notes = new ArrayList<>();
            preview.path("notes").forEach(note -> notes.add(note.asText()));
            say("no plan for %s: %s", tableId, notes.isEmpty() ? "the planner found nothing it can do" : String.join("; ", notes));
            result.set("preview", preview);
            return finish("no-plan", CryoCli.FINDINGS);
        }
        JsonNode planned = plan.get().path("plan");
        result.set("plan", planned);
        say("planned %s: %s, expected score %d", plan.get().path("planId").asText(), operations(planned),
                planned.path("expectedScore").asInt());

        Optional<JsonNode> job = follower().followJob(tableId, path, plan.get().path("planId").asText(), deadline);
        if (job.isEmpty()) {
            return finish(result.has("dropped") ? "dropped" : "deferred", CryoCli.FINDINGS);
        }
        return reportJob(tableId, path, job.get(), graded, deadline);
    }

    /**
     * The finished job's outcome, its steps, the planner's score of it and the grade after it,
     * against {@code graded}: the grade the fix set out from.
     */
    private int reportJob(TableId tableId, String path, JsonNode finished, JsonNode graded, Instant deadline) {
        result.set("job", finished);
        String outcome = finished.path("outcome").asText("unknown").toLowerCase(Locale.ROOT);
        Instant finishedAt = instant(finished, "finishedAt");
        say("job %s %s in %s%s", finished.path("jobId").asText(), outcome.replace('-', ' '),
                Formats.duration(Duration.between(instant(finished, "startedAt"), finishedAt)),
                finished.hasNonNull("message") ? ": " + finished.path("message").asText() : "");
        operationResults(tableId, finished.path("jobId").asText());
        if ("failed".equals(outcome) || "cancelled".equals(outcome)) {
            return finish("job-" + outcome, CryoCli.FINDINGS);
        }

        // The planner scores the job against the first grade of a scan after it: the plan's promise, measured.
        String jobId = finished.path("jobId").asText();
        Instant scoreDeadline = min(deadline, finishedAt.plus(SCORE_WAIT));
        Optional<JsonNode> score = session.poll(scoreDeadline, () -> lookups.jobScore(jobId));
        score.ifPresent(scored -> {
            result.set("score", scored);
            say("%s %s", scored.path("noOp").asBoolean() ? "no-op:" : scored.path("actualScore").isNull() ? "not measured:"
                    : scored.path("actualScore").asInt() >= scored.path("expectedScore").asInt() ? "promise kept:"
                    : "promise missed:", stripNoOp(scored.path("message").asText()));
        });
        Optional<JsonNode> after = score.filter(scored -> scored.hasNonNull("scanId"))
                .flatMap(scored -> lookups.grade(path))
                .or(() -> lookups.grade(path).filter(grade -> instant(grade, "gradedAt").isAfter(finishedAt)));
        JsonNode last = after.orElseGet(() -> lookups.grade(path).orElse(graded));
        result.set("after", summary(last));
        if (after.isEmpty()) {
            say("no grade after the job yet (the planner has not scored job %s; see ./cryo jobs); the table stands at %s %d",
                    jobId, last.path("grade").asText(), last.path("score").asInt());
        } else {
            say("new grade %s %d (was %s %d): %s", last.path("grade").asText(), last.path("score").asInt(),
                    graded.path("grade").asText(), graded.path("score").asInt(), findings(last));
        }
        boolean healthy = last.path("deductions").isEmpty();
        return finish(healthy ? "fixed" : last.path("score").asInt() > graded.path("score").asInt() ? "improved" : "unchanged",
                healthy ? CryoCli.HEALTHY : CryoCli.FINDINGS);
    }

    /** The score's message without its "no-op: " prefix, which the line already says. */
    private static String stripNoOp(String message) {
        return message.startsWith("no-op: ") ? message.substring("no-op: ".length()) : message;
    }

    /** The grading of the scan that {@code eventId} (the request) led to, current or overtaken by a newer one. */
    private Optional<JsonNode> ownGrade(String path, String eventId) {
        Optional<JsonNode> current = lookups.grade(path);
        if (current.isEmpty() || eventId.equals(current.get().path("correlationId").asText())) {
            return current.filter(grade -> eventId.equals(grade.path("correlationId").asText()));
        }
        for (JsonNode grading : api().get(Service.SCORER, "/api/v1/tables/" + path + "/history?limit=" + HISTORY)) {
            if (eventId.equals(grading.path("correlationId").asText())) {
                return Optional.of(grading);
            }
        }
        return Optional.empty();
    }

    /** The plan made from the request's grading, waiting at most {@code planWait} after the grade. */
    private Optional<JsonNode> awaitPlan(String path, String eventId, Instant deadline) {
        return session.poll(min(deadline, now().plus(planWait)), () -> {
            try {
                JsonNode history = api().get(Service.PLANNER, "/api/v1/tables/" + path + "/plans?limit=" + HISTORY);
                for (JsonNode plan : history.path("plans")) {
                    if (eventId.equals(plan.path("correlationId").asText())) {
                        return Optional.of(lookups.plan(plan.path("planId").asText()));
                    }
                }
                return Optional.empty();
            } catch (ApiError e) {
                if (e.isNotFound()) {
                    return Optional.empty();
                }
                throw e;
            }
        });
    }

    /**
     * The fix's scan found nothing to fix: the table is healthy, or a job that was running as the fix
     * began committed before the scan, and the fix ends with that job's outcome.
     */
    private int nothingToFix(TableId tableId, String path, JsonNode before, Instant deadline) {
        String running = heldBy != null ? heldBy : follower().jobOnTableSince(tableId, started).orElse(null);
        if (running == null) {
            say("nothing to fix: no check takes a point off %s", tableId);
            return finish("healthy", CryoCli.HEALTHY);
        }
        say("nothing left to fix: job %s was running on %s when the fix was asked for; the fix ends with its outcome",
                running, tableId);
        result.put("followedJob", running);
        return reportJob(tableId, path, follower().awaitJob(tableId, running, deadline), before, deadline);
    }

    /** The job that holds the table at the governor now, said aloud; empty when none, or the governor does not answer. */
    private Optional<String> lockHolder(String path) {
        try {
            JsonNode lock = lookups.governedTable(path).path("lock");
            if (!lock.hasNonNull("jobId")) {
                return Optional.empty();
            }
            say("job %s (plan %s) holds the table: if it leaves nothing to do, the fix ends with its outcome",
                    lock.path("jobId").asText(), lock.path("planId").asText());
            result.put("heldBy", lock.path("jobId").asText());
            return Optional.of(lock.path("jobId").asText());
        } catch (CliException e) {
            return Optional.empty();
        }
    }

    /** Files and bytes before and after each step, from the audit log (best effort: the audit may lag or be down). */
    private void operationResults(TableId tableId, String jobId) {
        try {
            JsonNode page = api().get(Service.AUDIT, "/api/v1/audit?table=" + ApiClient.query(tableId.toString())
                    + "&type=" + ApiClient.query(EventType.OPERATION_FINISHED.id()) + "&from="
                    + ApiClient.query(started.toString()) + "&limit=500");
            ArrayNode steps = result.putArray("operations");
            List<JsonNode> rows = new ArrayList<>();
            page.path("items").forEach(rows::add);
            java.util.Collections.reverse(rows);
            for (JsonNode row : rows) {
                JsonNode payload = row.path("payload");
                if (!jobId.equals(payload.path("jobId").asText())) {
                    continue;
                }
                steps.add(payload);
                JsonNode before = payload.path("before");
                JsonNode after = payload.path("after");
                say("  %-24s %-9s files %d → %d, %s → %s, delete files %d → %d", payload.path("operation").asText()
                                + (payload.hasNonNull("chunkIndex") ? " chunk " + payload.path("chunkIndex").asInt() : ""),
                        payload.path("status").asText(), before.path("dataFiles").asLong(), after.path("dataFiles").asLong(),
                        Formats.bytes(before.path("dataBytes").asLong()), Formats.bytes(after.path("dataBytes").asLong()),
                        before.path("deleteFiles").asLong(), after.path("deleteFiles").asLong());
            }
        } catch (CliException e) {
            say("  (no step details: %s)", e.getMessage());
        }
    }

    private void say(String format, Object... arguments) {
        session.say(format, arguments);
    }

    private FixFollower follower() {
        return new FixFollower(session, heldBy);
    }

    private int finish(String outcome, int exitCode) {
        result.put("outcome", outcome);
        if (json) {
            printJson(result);
        }
        return exitCode;
    }

    private ObjectNode summary(JsonNode grade) {
        ObjectNode summary = api().json().createObjectNode();
        summary.put("grade", grade.path("grade").asText());
        summary.put("score", grade.path("score").asInt());
        summary.put("gradedAt", grade.path("gradedAt").asText());
        summary.put("scanId", grade.path("scanId").asText());
        summary.set("deductions", grade.path("deductions"));
        return summary;
    }

    private static String findings(JsonNode grade) {
        List<String> checks = new ArrayList<>();
        grade.path("deductions").forEach(deduction -> checks.add(deduction.path("check").asText() + " -"
                + deduction.path("points").asInt()));
        return checks.isEmpty() ? "no findings" : String.join(", ", checks);
    }

    private static String operations(JsonNode plan) {
        List<String> operations = new ArrayList<>();
        plan.path("operations").forEach(operation -> {
            int chunks = operation.path("chunks").size();
            operations.add(operation.path("operation").asText() + (chunks > 0 ? " (" + chunks + " chunk" + (chunks == 1 ? "" : "s") + ")" : ""));
        });
        return String.join(", ", operations);
    }

    private static Instant min(Instant first, Instant second) {
        return first.isBefore(second) ? first : second;
    }
}
