package dev.cryo.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cryo.cli.CryoCli;
import dev.cryo.cli.api.Service;
import dev.cryo.cli.text.Formats;
import dev.cryo.cli.text.TextTable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

/** {@code ./cryo jobs}: what runs, what waits and why, the engines, and the recent jobs. */
@Command(name = "jobs", description = {"What runs, what waits and why, and the recent jobs.",
        "The governor's queue (running with progress, admitted, waiting with reason and retry-after), the",
        "engines' slots and load, and the executors' recent jobs. Exit 1 when a listed job failed."})
public final class JobsCommand extends BaseCommand {

    @Option(names = "--limit", defaultValue = "20", description = "Recent jobs to list (default: ${DEFAULT-VALUE})")
    int limit;

    @Option(names = "--table", description = "Only this table")
    String table;

    @Override
    public Integer call() {
        JsonNode queue = api().get(Service.GOVERNOR, "/api/v1/queue");
        JsonNode engines = api().get(Service.GOVERNOR, "/api/v1/engines");
        JsonNode recent = api().get(Service.EXECUTOR, "/api/v1/jobs?limit=" + Math.max(1, Math.min(1000, table == null ? limit : 1000)));
        ArrayNode jobs = api().json().createArrayNode();
        for (JsonNode job : recent) {
            if (matches(job) && jobs.size() < limit) {
                jobs.add(job);
            }
        }
        boolean failed = false;
        for (JsonNode job : jobs) {
            failed |= "failed".equalsIgnoreCase(job.path("outcome").asText());
        }
        if (json) {
            ObjectNode result = api().json().createObjectNode();
            result.set("running", filter(queue.path("running")));
            result.set("admitted", filter(queue.path("admitted")));
            result.set("deferred", filter(queue.path("deferred")));
            result.set("engines", engines);
            result.set("jobs", jobs);
            printJson(result);
        } else {
            print(queue, engines, jobs, out());
        }
        return failed ? CryoCli.FINDINGS : CryoCli.HEALTHY;
    }

    private void print(JsonNode queue, JsonNode engines, JsonNode jobs, PrintWriter out) {
        Instant now = now();
        out.println("Running");
        TextTable running = new TextTable("JOB", "TABLE", "ENGINE", "OPERATION", "PROGRESS", "STARTED", "HEARTBEAT", "ATTEMPT");
        filter(queue.path("running")).forEach(job -> running.row(job.path("jobId").asText(), job.path("table").asText(),
                job.path("engine").asText(), job.path("operation").asText("-"), progress(job),
                Formats.ago(instant(job, "startedAt"), now), Formats.ago(instant(job, "lastHeartbeatAt"), now),
                job.path("attempt").asInt()));
        section(running, out, "  nothing runs");
        out.println();
        out.println("Admitted, not started");
        TextTable admitted = new TextTable("JOB", "TABLE", "ENGINE", "SLOT", "ADMITTED", "NOTE");
        filter(queue.path("admitted")).forEach(job -> admitted.row(job.path("jobId").asText(), job.path("table").asText(),
                job.path("engine").asText(), job.path("slot").asInt(), Formats.ago(instant(job, "admittedAt"), now),
                job.path("note").asText("-")));
        section(admitted, out, "  none");
        out.println();
        out.println("Waiting");
        TextTable waiting = new TextTable("TABLE", "SCORE", "REASON", "RETRY AFTER", "ENGINE", "WHY");
        filter(queue.path("deferred")).forEach(plan -> waiting.row(plan.path("table").asText(), plan.path("score").asInt(),
                plan.path("reason").asText("undecided"), plan.hasNonNull("retryAfter")
                        ? Formats.time(instant(plan, "retryAfter"), cli().zone()) : "when resumed",
                plan.path("engine").asText("-"), TablesCommand.shorten(plan.path("message").asText("-"), 90)));
        section(waiting, out, "  nothing waits");
        out.println();
        out.println("Engines");
        TextTable engineTable = new TextTable("ENGINE", "SLOTS", "IN USE", "FOREIGN QUERIES", "LOAD");
        engines.forEach(engine -> engineTable.row(engine.path("engine").asText(), engine.path("slots").asInt(),
                engine.path("slotsInUse").asInt(), engine.path("maxForeignQueries").asInt() + " max", load(engine.path("lastLoad"))));
        section(engineTable, out, "  none configured");
        out.println();
        out.println("Recent jobs");
        TextTable recent = new TextTable("JOB", "TABLE", "STATE", "OUTCOME", "STARTED", "TOOK", "ATTEMPT", "ERROR");
        jobs.forEach(job -> {
            Instant startedAt = instant(job, "startedAt");
            Instant finishedAt = instant(job, "finishedAt");
            recent.row(job.path("jobId").asText(), job.path("table").asText(), job.path("state").asText(),
                    job.path("outcome").asText("-").toLowerCase(Locale.ROOT), Formats.ago(startedAt, now),
                    startedAt != null && finishedAt != null ? Formats.duration(Duration.between(startedAt, finishedAt)) : "-",
                    job.path("attempt").asInt(), job.hasNonNull("errorCode")
                            ? job.path("errorCode").asText() + ": " + TablesCommand.shorten(job.path("message").asText(""), 60) : "-");
        });
        section(recent, out, "  no job yet");
        out.flush();
    }

    private ArrayNode filter(JsonNode rows) {
        ArrayNode kept = api().json().createArrayNode();
        rows.forEach(row -> {
            if (matches(row)) {
                kept.add(row);
            }
        });
        return kept;
    }

    private boolean matches(JsonNode row) {
        return table == null || table.equals(row.path("table").asText());
    }

    private static String progress(JsonNode job) {
        if (!job.hasNonNull("chunksTotal")) {
            return "-";
        }
        return job.path("chunksDone").asInt() + "/" + job.path("chunksTotal").asInt() + " chunks";
    }

    private static String load(JsonNode load) {
        if (!load.isObject()) {
            return "not read";
        }
        if (load.hasNonNull("problem")) {
            return "unreadable: " + load.path("problem").asText();
        }
        return load.hasNonNull("foreignQueries") ? load.path("foreignQueries").asInt() + " foreign queries"
                + (load.path("overLimit").asBoolean() ? " (busy)" : "") : "not measured";
    }

    private static void section(TextTable table, PrintWriter out, String empty) {
        if (table.isEmpty()) {
            out.println(empty);
        } else {
            table.print(out);
        }
    }
}
