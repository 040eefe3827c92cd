package dev.cryo.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryo.cli.CryoCli;
import dev.cryo.cli.api.Service;
import dev.cryo.cli.text.Formats;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.Map;

/** {@code ./cryo pause <table-or-pattern>}: no maintenance for these tables until resumed. */
@Command(name = "pause", description = {"Pause maintenance of a table or a pattern.",
        "lake.sales.* is one namespace, lake.** a catalog, ** everything: their plans wait at the governor",
        "with reason 'paused' until ./cryo resume."})
public final class PauseCommand extends BaseCommand {

    @Parameters(paramLabel = "<table-or-pattern>", description = "catalog.namespace.table, or a glob of them")
    String pattern;

    @Option(names = "--reason", defaultValue = "paused from the command line",
            description = "Why, for the other operators (default: ${DEFAULT-VALUE})")
    String reason;

    @Override
    public Integer call() {
        JsonNode pause = api().postAsOperator(Service.GOVERNOR, "/api/v1/pauses", Map.of("pattern", pattern, "reason", reason));
        if (json) {
            printJson(pause);
        } else {
            out().printf("paused %s (pause %s) by %s at %s: %s%n", pause.path("pattern").asText(), pause.path("id").asText(),
                    pause.path("pausedBy").asText(), Formats.time(instant(pause, "pausedAt"), cli().zone()),
                    pause.path("reason").asText());
            if (!pause.path("revokedJobs").isEmpty()) {
                java.util.List<String> revoked = new java.util.ArrayList<>();
                pause.path("revokedJobs").forEach(job -> revoked.add(job.asText()));
                out().printf("revoked %d job(s) holding these tables: %s; each ends cancelled (TABLE_PAUSED) without"
                        + " starting, or before its next step%n", revoked.size(), String.join(", ", revoked));
            }
            out().printf("resume with ./cryo resume %s%n", pause.path("pattern").asText());
            out().flush();
        }
        return CryoCli.HEALTHY;
    }
}
