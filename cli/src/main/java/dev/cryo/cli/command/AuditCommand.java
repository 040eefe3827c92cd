package dev.cryo.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryo.cli.CryoCli;
import dev.cryo.cli.api.ApiClient;
import dev.cryo.cli.api.Service;
import dev.cryo.cli.text.Formats;
import dev.cryo.cli.text.Since;
import dev.cryo.cli.text.TextTable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ./cryo audit}: what happened, from the append-only audit log. */
@Command(name = "audit", description = {"The audit log, newest first.",
        "Every event with its stage, table, status, actor and one line of detail; --correlation shows one",
        "table change from commit to new grade, oldest first."},
        subcommands = AuditCommand.Verify.class)
public final class AuditCommand extends BaseCommand {

    @Option(names = "--table", description = "Only this table")
    String table;

    @Option(names = "--since", description = "Only events since: 30m, 2h, 7d, 2026-01-31 or an ISO time")
    String since;

    @Option(names = "--until", description = "Only events before this time (same forms as --since)")
    String until;

    @Option(names = "--type", description = "Only this CloudEvents type, e.g. dev.cryo.job.finished.v1")
    String type;

    @Option(names = "--actor", description = "Only what this operator asked for")
    String actor;

    @Option(names = "--correlation", description = "One table change's whole timeline, by its correlation id")
    String correlation;

    @Option(names = "--limit", defaultValue = "50", description = "At most this many events (default: ${DEFAULT-VALUE})")
    int limit;

    @Override
    public Integer call() {
        JsonNode answer;
        JsonNode events;
        if (correlation != null) {
            answer = api().get(Service.AUDIT, "/api/v1/audit/timeline/" + ApiClient.segment(correlation));
            events = answer.path("events");
        } else {
            StringBuilder query = new StringBuilder("/api/v1/audit?limit=" + limit);
            append(query, "table", table);
            append(query, "type", type);
            append(query, "actor", actor);
            if (since != null) {
                append(query, "from", Since.parse(since, now(), cli().zone()).toString());
            }
            if (until != null) {
                append(query, "to", Since.parse(until, now(), cli().zone()).toString());
            }
            answer = api().get(Service.AUDIT, query.toString());
            events = answer.path("items");
        }
        if (json) {
            printJson(answer);
            return CryoCli.HEALTHY;
        }
        TextTable rows = new TextTable("TIME", "STAGE", "TABLE", "EVENT", "STATUS", "ACTOR", "DETAIL");
        events.forEach(event -> rows.row(Formats.time(instant(event, "eventTime"), cli().zone()), event.path("stage").asText(),
                event.path("table").asText("-"), shortType(event.path("eventType").asText("-")), event.path("status").asText("-"),
                event.path("actor").asText("-"), TablesCommand.shorten(event.path("detail").asText("-"), 90)));
        if (rows.isEmpty()) {
            out().println("No audit event matches.");
        } else {
            rows.print(out());
            if (answer.hasNonNull("next")) {
                out().printf("more: --limit %d, or narrow with --since/--table%n", limit * 2);
            }
            if (answer.hasNonNull("more")) {
                out().println("more: " + answer.path("more").asText());
            }
        }
        out().flush();
        return CryoCli.HEALTHY;
    }

    /** {@code dev.cryo.job.finished.v1} reads {@code job.finished}. */
    static String shortType(String type) {
        return type.replaceFirst("^dev\\.cryo\\.", "").replaceFirst("\\.v\\d+$", "");
    }

    private static void append(StringBuilder query, String name, String value) {
        if (value != null && !value.isBlank()) {
            query.append('&').append(name).append('=').append(ApiClient.query(value.trim()));
        }
    }

    /** {@code ./cryo audit verify}: the hash chain recomputed, and checked against its anchor outside the database. */
    @Command(name = "verify", description = {"Recompute the audit log's hash chain and check it against its latest anchor",
            "on cryo.audit-anchors.v1, outside the database (a rewrite re-chained by whoever holds the database",
            "verifies clean on its own). Exit 0 when intact, 1 when broken."})
    public static final class Verify extends BaseCommand {

        @Override
        public Integer call() {
            JsonNode report = api().get(Service.AUDIT, "/api/v1/audit/verify");
            boolean intact = "OK".equals(report.path("status").asText());
            if (json) {
                printJson(report);
                return intact ? CryoCli.HEALTHY : CryoCli.FINDINGS;
            }
            out().printf("chain: %s, %d rows checked (%d archived), last row %d hash %s, in %d ms%n",
                    report.path("status").asText(), report.path("rowsChecked").asLong(), report.path("rowsArchived").asLong(),
                    report.path("lastId").asLong(), report.path("lastHash").asText(), report.path("durationMillis").asLong());
            JsonNode first = report.path("firstBreak");
            if (!first.isMissingNode() && !first.isNull()) {
                out().printf("broken: %d link(s), the first at row %d: %s%n", report.path("breakCount").asLong(),
                        first.path("id").asLong(), first.path("problem").asText());
            }
            JsonNode anchoring = report.path("anchoring");
            out().printf("anchoring: %s on %s: %s: %s%n", anchoring.path("method").asText("-"),
                    anchoring.path("topic").asText("-"), anchoring.path("status").asText("-"),
                    anchoring.path("message").asText("-"));
            out().flush();
            return intact ? CryoCli.HEALTHY : CryoCli.FINDINGS;
        }
    }
}
