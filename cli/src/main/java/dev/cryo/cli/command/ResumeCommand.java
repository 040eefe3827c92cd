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

/** {@code ./cryo resume <table-or-pattern>}: lifts the pauses written exactly so. */
@Command(name = "resume", description = {"Resume maintenance of a paused table or pattern.",
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
        if (matching.isEmpty()) {
            throw new CliException(notPausedMessage(all));
        }
        ArrayNode resumed = api().json().createArrayNode();
        for (JsonNode pause : matching) {
            api().deleteAsOperator(Service.GOVERNOR, "/api/v1/pauses/" + ApiClient.segment(pause.path("id").asText()));
            resumed.add(pause);
        }
        if (json) {
            printJson(resumed);
        } else {
            matching.forEach(pause -> out().printf("resumed %s (pause %s, paused by %s: %s)%n", pattern,
                    pause.path("id").asText(), pause.path("pausedBy").asText(), pause.path("reason").asText()));
            out().flush();
        }
        return CryoCli.HEALTHY;
    }

    private String notPausedMessage(List<String> patterns) {
        if (isTable(pattern)) {
            JsonNode view = api().get(Service.GOVERNOR, "/api/v1/tables/" + ApiClient.segment(pattern));
            JsonNode pausedBy = view.path("pausedBy");
            if (pausedBy.isObject()) {
                return "Cannot resume " + pattern + " alone: it is paused by pattern " + pausedBy.path("pattern").asText()
                        + " (pause " + pausedBy.path("id").asText() + ", " + pausedBy.path("reason").asText()
                        + "); resume that pattern with ./cryo resume '" + pausedBy.path("pattern").asText() + "'";
            }
        }
        return "Cannot resume " + pattern + ": no pause is written so" + (patterns.isEmpty() ? "; nothing is paused"
                : "; paused are " + patterns);
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
