package dev.cryo.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.cryo.cli.CryoCli;
import dev.cryo.cli.api.ApiClient;
import dev.cryo.cli.api.CliException;
import dev.cryo.cli.api.Service;
import dev.cryo.contracts.TableId;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code ./cryo resume <table-or-pattern>}: lifts the pauses written exactly so, and for a table
 * that failing jobs blocked (or that waits out a retry backoff), lets its next job run: the jobs
 * that failed before no longer count.
 */
@Command(name = "resume", description = {"Resume maintenance of a paused table or pattern, or of a table that failing jobs blocked.",
        "Removes the pauses written exactly so; a table paused by a broader pattern says which pattern to resume."})
public final class ResumeCommand extends BaseCommand {

    @Parameters(paramLabel = "<table-or-pattern>", description = "The table or pattern as it was paused")
    String pattern;

    @Override
    public Integer call() {
        JsonNode pauses = api().get(Service.GOVERNOR, "/api/v1/pauses");
        List<JsonNode> matching = new ArrayList<>();
        List<String> all = new ArrayList<>();
        for (JsonNode pause : pauses) {
            all.add(pause.path("pattern").asText());
            if (pattern.equals(pause.path("pattern").asText())) {
                matching.add(pause);
            }
        }
        JsonNode table = isTable(pattern) ? api().get(Service.GOVERNOR, "/api/v1/tables/" + ApiClient.segment(pattern))
                : api().json().missingNode();
        JsonNode failures = table.path("failures");
        if (matching.isEmpty() && !failures.isObject()) {
            throw new CliException(notPausedMessage(table, all));
        }
        ArrayNode resumed = api().json().createArrayNode();
        for (JsonNode pause : matching) {
            api().deleteAsOperator(Service.GOVERNOR, "/api/v1/pauses/" + ApiClient.segment(pause.path("id").asText()));
            resumed.add(pause);
        }
        if (failures.isObject()) {
            api().postAsOperator(Service.GOVERNOR, "/api/v1/tables/" + ApiClient.segment(pattern) + "/resume", Map.of());
            resumed.add(failures);
        }
        if (json) {
            printJson(resumed);
        } else {
            matching.forEach(pause -> out().printf("resumed %s (pause %s, paused by %s: %s)%n", pattern,
                    pause.path("id").asText(), pause.path("pausedBy").asText(), pause.path("reason").asText()));
            if (failures.isObject()) {
                out().printf("resumed %s: its last %d jobs failed with %s (%s)%s; they no longer count, its next plan runs%n",
                        pattern, failures.path("failures").asInt(), failures.path("errorCode").asText(),
                        failures.path("message").asText(), failures.path("blocked").asBoolean() ? " and blocked it" : "");
            }
            out().flush();
        }
        return CryoCli.HEALTHY;
    }

    private String notPausedMessage(JsonNode view, List<String> patterns) {
        if (isTable(pattern)) {
            JsonNode pausedBy = view.path("pausedBy");
            if (pausedBy.isObject()) {
                return "Cannot resume " + pattern + " alone: it is paused by pattern " + pausedBy.path("pattern").asText()
                        + " (pause " + pausedBy.path("id").asText() + ", " + pausedBy.path("reason").asText()
                        + "); resume that pattern with ./cryo resume '" + pausedBy.path("pattern").asText() + "'";
            }
        }
        return "Cannot resume " + pattern + ": no pause is written so and no failing job holds it"
                + (patterns.isEmpty() ? "; nothing is paused" : "; paused are " + patterns);
    }

    private static boolean isTable(String text) {
        if (text.contains("*") || text.contains("?")) {
            return false;
        }
        try {
            TableId.parse(text);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
