package dev.cryo.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryo.cli.CryoCli;
import dev.cryo.cli.api.CliException;
import dev.cryo.cli.api.Service;
import dev.cryo.cli.text.Formats;
import dev.cryo.cli.text.TextTable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** {@code ./cryo dlq list|redrive <service>}: what a service's consumers could not handle, and sending it again. */
@Command(name = "dlq", description = {"A service's dead letters (cryo.dlq.<service>.v1): the records its consumers could",
        "not handle, with the reason. redrive publishes them again on their original topic, once the cause is fixed."},
        subcommands = {DlqCommand.ListLetters.class, DlqCommand.Redrive.class})
public final class DlqCommand extends BaseCommand {

    @Override
    public Integer call() {
        throw new CliException("Cannot run dlq: say ./cryo dlq list <service> or ./cryo dlq redrive <service> [--id <id>]");
    }

    static Service service(String name) {
        String bare = name.toLowerCase(Locale.ROOT).replaceFirst("-svc$", "");
        return Arrays.stream(Service.values()).filter(service -> service.name().toLowerCase(Locale.ROOT).equals(bare))
                .findFirst().orElseThrow(() -> new CliException("Cannot use service '" + name + "': expected one of "
                        + Arrays.stream(Service.values()).map(s -> s.name().toLowerCase(Locale.ROOT)).toList()));
    }

    @Command(name = "list", description = "The newest dead letters of a service, with why they failed and whether they were re-driven.")
    public static final class ListLetters extends BaseCommand {

        @Parameters(paramLabel = "<service>", description = "scanner, scorer, planner, governor, executor or audit")
        String service;

        @Option(names = "--limit", defaultValue = "100", description = "At most this many (default: ${DEFAULT-VALUE})")
        int limit;

        @Override
        public Integer call() {
            JsonNode page = api().get(service(service), "/api/v1/dead-letters?limit=" + limit);
            if (json) {
                printJson(page);
                return CryoCli.HEALTHY;
            }
            TextTable table = new TextTable("ID", "WHEN", "TYPE", "KEY", "FROM", "STATE", "REASON");
            int waiting = 0;
            for (JsonNode letter : page.path("deadLetters")) {
                boolean redriven = letter.hasNonNull("redrivenBy");
                waiting += redriven ? 0 : 1;
                table.row(letter.path("id").asText(), Formats.ago(instant(letter, "deadLetteredAt"), now()),
                        letter.path("eventType").asText("-"), letter.path("key").asText("-"),
                        letter.path("originalTopic").asText("-"),
                        redriven ? "re-driven by " + letter.path("redrivenBy").asText() : "waiting",
                        TablesCommand.shorten(letter.path("reason").asText("-"), 80));
            }
            if (table.isEmpty()) {
                out().println("No dead letters in " + page.path("topic").asText());
            } else {
                table.print(out());
                out().printf("%d waiting in %s; re-drive with ./cryo dlq redrive %s --id <ID>%n", waiting,
                        page.path("topic").asText(), service);
            }
            out().flush();
            return waiting == 0 ? CryoCli.HEALTHY : CryoCli.FINDINGS;
        }
    }

    @Command(name = "redrive", description = {"Publish dead letters again on the topic they came from (operator token).",
            "With --id, those; without, every dead letter that waits. Each re-drive is recorded with who asked."})
    public static final class Redrive extends BaseCommand {

        @Parameters(paramLabel = "<service>", description = "scanner, scorer, planner, governor, executor or audit")
        String service;

        @Option(names = "--id", split = ",", description = "A dead letter's id as dlq list shows it (<partition>-<offset>); repeatable")
        List<String> ids;

        @Override
        public Integer call() {
            Map<String, Object> body = new LinkedHashMap<>();
            if (ids == null || ids.isEmpty()) {
                body.put("all", true);
            } else {
                body.put("ids", ids);
            }
            JsonNode results = api().postAsOperator(service(service), "/api/v1/dead-letters/redrive", body);
            if (json) {
                printJson(results);
            } else if (results.isEmpty()) {
                out().println("Nothing to re-drive: no dead letter waits");
            } else {
                TextTable table = new TextTable("ID", "OUTCOME", "MESSAGE");
                results.forEach(result -> table.row(result.path("id").asText(), result.path("outcome").asText(),
                        result.path("message").asText()));
                table.print(out());
            }
            out().flush();
            boolean refused = false;
            for (JsonNode result : results) {
                refused |= "refused".equals(result.path("outcome").asText());
            }
            return refused ? CryoCli.ERROR : CryoCli.HEALTHY;
        }
    }
}
