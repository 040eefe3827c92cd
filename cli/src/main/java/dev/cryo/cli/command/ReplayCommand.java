package dev.cryo.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryo.cli.CryoCli;
import dev.cryo.cli.api.ApiClient;
import dev.cryo.cli.api.CliException;
import dev.cryo.cli.api.Service;
import dev.cryo.cli.text.Formats;
import dev.cryo.cli.text.Since;
import dev.cryo.cli.text.TextTable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@code ./cryo replay}: the audit's replays: re-publish stored events, rebuild the log from Kafka. */
@Command(name = "replay", description = {"Audit replays. Without a subcommand: the recent runs.",
        "publish re-publishes stored events of a time range to cryo.replay.v1; rebuild rebuilds the log from Kafka",
        "into a new schema and compares it with the live one. Both show their progress until done."},
        subcommands = {ReplayCommand.Publish.class, ReplayCommand.Rebuild.class, ReplayCommand.Status.class})
public final class ReplayCommand extends BaseCommand {

    @Override
    public Integer call() {
        JsonNode runs = api().get(Service.AUDIT, "/api/v1/audit/replays");
        if (json) {
            printJson(runs);
            return CryoCli.HEALTHY;
        }
        TextTable table = new TextTable("RUN", "KIND", "STATE", "PROGRESS", "ACTOR", "REQUESTED", "MESSAGE");
        runs.forEach(run -> table.row(run.path("id").asText(), run.path("kind").asText(), run.path("state").asText(),
                runProgress(run), run.path("actor").asText("-"), Formats.ago(instant(run, "requestedAt"), now()),
                TablesCommand.shorten(run.path("message").asText("-"), 70)));
        if (table.isEmpty()) {
            out().println("No replay yet: ./cryo replay publish --since 1h, or ./cryo replay rebuild");
        } else {
            table.print(out());
        }
        out().flush();
        return CryoCli.HEALTHY;
    }

    static String runProgress(JsonNode run) {
        long done = run.path("recordsDone").asLong();
        return run.hasNonNull("recordsTotal") ? done + "/" + run.path("recordsTotal").asLong() + " records" : done + " records";
    }

    /** Follows a run until it succeeds or fails, printing its progress as it changes. */
    abstract static class Following extends BaseCommand {

        @Option(names = "--no-wait", description = "Start the run and return its id")
        boolean noWait;

        @Option(names = "--timeout", defaultValue = "PT30M", description = "Stop following after this long (default: ${DEFAULT-VALUE})")
        Duration timeout;

        @Option(names = "--poll-interval", defaultValue = "PT1S", description = "How often to ask (default: ${DEFAULT-VALUE})")
        Duration pollInterval;

        int follow(JsonNode started) {
            String id = started.path("id").asText();
            progress().printf("replay %s (%s) %s%n", id, started.path("kind").asText(), started.path("state").asText());
            progress().flush();
            JsonNode run = started;
            if (!noWait) {
                Instant deadline = now().plus(timeout);
                String last = null;
                while (!finished(run)) {
                    if (!now().isBefore(deadline)) {
                        throw new CliException("Cannot follow replay " + id + ": not done within " + timeout
                                + "; ./cryo replay status " + id + " shows where it stands");
                    }
                    try {
                        Thread.sleep(pollInterval.toMillis());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new CliException("Interrupted while following replay " + id, e);
                    }
                    run = api().get(Service.AUDIT, "/api/v1/audit/replays/" + ApiClient.segment(id));
                    String line = run.path("state").asText() + ", " + runProgress(run)
                            + (run.hasNonNull("message") ? ": " + run.path("message").asText() : "");
                    if (!line.equals(last)) {
                        progress().println("  " + line);
                        progress().flush();
                        last = line;
                    }
                }
            }
            if (json) {
                printJson(run);
            } else if (run.hasNonNull("result")) {
                out().println("result: " + run.path("result"));
                out().flush();
            }
            return "failed".equals(run.path("state").asText()) ? CryoCli.ERROR : CryoCli.HEALTHY;
        }

        private static boolean finished(JsonNode run) {
            String state = run.path("state").asText();
            return "succeeded".equals(state) || "failed".equals(state);
        }
    }

    @Command(name = "publish", description = "Re-publish the stored events of a time range to cryo.replay.v1.")
    public static final class Publish extends Following {

        @Option(names = "--since", required = true, description = "From: 30m, 2h, 7d, 2026-01-31 or an ISO time")
        String since;

        @Option(names = "--until", description = "To (default: now)")
        String until;

        @Option(names = "--table", description = "Only this table")
        String table;

        @Option(names = "--type", description = "Only this CloudEvents type")
        String type;

        @Override
        public Integer call() {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("from", Since.parse(since, now(), cli().zone()).toString());
            body.put("to", (until == null ? now() : Since.parse(until, now(), cli().zone())).toString());
            if (table != null) {
                body.put("table", table);
            }
            if (type != null) {
                body.put("type", type);
            }
            return follow(api().postAsOperator(Service.AUDIT, "/api/v1/audit/replays/publish", body));
        }
    }

    @Command(name = "rebuild", description = "Rebuild the audit log from Kafka into a new schema and compare it with the live log.")
    public static final class Rebuild extends Following {

        @Option(names = "--from", description = "Read from this time (default: the earliest record Kafka keeps)")
        String from;

        @Option(names = "--target-schema", description = "The new schema (default: <live schema>_rebuild_<time>)")
        String targetSchema;

        @Override
        public Integer call() {
            Map<String, Object> body = new LinkedHashMap<>();
            if (from != null) {
                body.put("from", Since.parse(from, now(), cli().zone()).toString());
            }
            if (targetSchema != null) {
                body.put("targetSchema", targetSchema);
            }
            return follow(api().postAsOperator(Service.AUDIT, "/api/v1/audit/replays/rebuild", body));
        }
    }

    @Command(name = "status", description = "One replay run.")
    public static final class Status extends BaseCommand {

        @Parameters(paramLabel = "<run>", description = "The run id")
        String id;

        @Override
        public Integer call() {
            JsonNode run = api().get(Service.AUDIT, "/api/v1/audit/replays/" + ApiClient.segment(id));
            if (json) {
                printJson(run);
            } else {
                out().printf("replay %s (%s): %s, %s, asked by %s %s%n", run.path("id").asText(), run.path("kind").asText(),
                        run.path("state").asText(), runProgress(run), run.path("actor").asText("-"),
                        Formats.ago(instant(run, "requestedAt"), now()));
                if (run.hasNonNull("message")) {
                    out().println("  " + run.path("message").asText());
                }
                if (run.hasNonNull("result")) {
                    out().println("  result: " + run.path("result"));
                }
                out().flush();
            }
            return "failed".equals(run.path("state").asText()) ? CryoCli.ERROR : CryoCli.HEALTHY;
        }
    }
}
