package dev.cryo.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cryo.cli.CryoCli;
import dev.cryo.cli.api.ApiClient;
import dev.cryo.cli.api.CliException;
import dev.cryo.cli.api.Service;
import dev.cryo.cli.text.Formats;
import dev.cryo.cli.text.TextTable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code ./cryo tables}: the scorer's listing of every graded table, with the governor's word on
 * the tables whose maintenance waits for an operator (blocked by failing jobs, or paused).
 */
@Command(name = "tables", description = {"Every graded table: grade, score, worst finding, worst first.",
        "HELD names tables whose maintenance waits for an operator: blocked by failing jobs, or paused.",
        "Filter with --grade, --catalog, --namespace; sort with --sort and --order.",
        "Exit 1 when a listed table has findings."})
public final class TablesCommand extends BaseCommand {

    /** The scorer's largest page. */
    static final int PAGE = 1000;

    /** The governor's deferrals that last until an operator acts ({@code ./cryo resume}). */
    static final java.util.Set<String> HELD_REASONS = java.util.Set.of("blocked", "paused");

    @Option(names = "--grade", description = "Only these grades, e.g. D,F")
    String grades;

    @Option(names = "--catalog", description = "Only this catalog")
    String catalog;

    @Option(names = "--namespace", description = "Only this namespace")
    String namespace;

    @Option(names = "--sort", description = "score (default), table or gradedAt")
    String sort;

    @Option(names = "--order", description = "asc or desc")
    String order;

    @Option(names = "--limit", description = "At most this many tables (default: all)")
    Integer limit;

    @Override
    public Integer call() {
        List<JsonNode> tables = new ArrayList<>();
        long total = 0;
        int offset = 0;
        do {
            int pageSize = limit == null ? PAGE : Math.min(PAGE, limit - tables.size());
            JsonNode page = api().get(Service.SCORER, "/api/v1/tables?" + query(pageSize, offset));
            total = page.path("total").asLong();
            page.path("tables").forEach(tables::add);
            offset += page.path("tables").size();
            if (page.path("tables").isEmpty()) {
                break;
            }
        } while (offset < total && (limit == null || tables.size() < limit));

        Map<String, JsonNode> held = held();
        if (json) {
            ObjectNode result = api().json().createObjectNode();
            result.put("total", total);
            ArrayNode rows = result.putArray("tables");
            tables.forEach(row -> {
                JsonNode deferral = held.get(row.path("table").asText());
                if (deferral != null && row instanceof ObjectNode object) {
                    object.set("held", deferral);
                }
                rows.add(row);
            });
            printJson(result);
        } else if (tables.isEmpty()) {
            out().println("No graded table" + (total > 0 ? " on this page" : " yet") + ". The scanner finds the tables of "
                    + "its catalogs within seconds of a commit; see ./cryo status.");
            out().flush();
        } else {
            print(tables, total, held);
        }
        boolean findings = tables.stream().anyMatch(table -> table.hasNonNull("topDeduction"));
        return findings ? CryoCli.FINDINGS : CryoCli.HEALTHY;
    }

    /**
     * The governor's waiting plans whose reason lasts until an operator acts, by table; empty (with a
     * note) when the governor does not answer: the grades are the scorer's and are shown anyway.
     */
    private Map<String, JsonNode> held() {
        Map<String, JsonNode> held = new TreeMap<>();
        try {
            for (JsonNode plan : api().get(Service.GOVERNOR, "/api/v1/queue").path("deferred")) {
                if (HELD_REASONS.contains(plan.path("reason").asText())) {
                    ObjectNode deferral = api().json().createObjectNode();
                    deferral.put("reason", plan.path("reason").asText());
                    deferral.put("message", plan.path("message").asText(""));
                    held.putIfAbsent(plan.path("table").asText(), deferral);
                }
            }
        } catch (CliException e) {
            progress().println("note: HELD is not shown, the governor did not answer: " + e.getMessage());
            progress().flush();
        }
        return held;
    }

    private void print(List<JsonNode> tables, long total, Map<String, JsonNode> held) {
        TextTable table = new TextTable("TABLE", "GRADE", "SCORE", "WORST FINDING", "FIX", "HELD", "GRADED");
        Map<String, Integer> byGrade = new TreeMap<>();
        for (JsonNode row : tables) {
            JsonNode top = row.path("topDeduction");
            String finding = top.isObject() ? top.path("check").asText() + ": " + shorten(top.path("explanation").asText(), 72)
                    : "none";
            table.row(row.path("table").asText(), row.path("grade").asText(), row.path("score").asInt(), finding,
                    top.isObject() ? top.path("fix").asText() : null,
                    held.containsKey(row.path("table").asText()) ? held.get(row.path("table").asText()).path("reason").asText() : null,
                    Formats.ago(instant(row, "gradedAt"), now()));
            byGrade.merge(row.path("grade").asText(), 1, Integer::sum);
        }
        table.print(out());
        StringBuilder summary = new StringBuilder();
        summary.append(tables.size()).append(tables.size() == 1 ? " table" : " tables");
        if (total > tables.size()) {
            summary.append(" of ").append(total);
        }
        summary.append(":");
        byGrade.forEach((grade, count) -> summary.append(' ').append(count).append(' ').append(grade));
        out().println(summary);
        for (JsonNode row : tables) {
            JsonNode deferral = held.get(row.path("table").asText());
            if (deferral != null) {
                out().printf("%s %s: %s; ./cryo resume %s%n", deferral.path("reason").asText(), row.path("table").asText(),
                        deferral.path("message").asText(), row.path("table").asText());
            }
        }
        out().flush();
    }

    private String query(int pageSize, int offset) {
        StringBuilder query = new StringBuilder("limit=" + pageSize + "&offset=" + offset);
        append(query, "grade", grades);
        append(query, "catalog", catalog);
        append(query, "namespace", namespace);
        append(query, "sort", sort);
        append(query, "order", order);
        return query.toString();
    }

    private static void append(StringBuilder query, String name, String value) {
        if (value != null && !value.isBlank()) {
            query.append('&').append(name).append('=').append(ApiClient.query(value.trim()));
        }
    }

    static String shorten(String text, int length) {
        return text.length() <= length ? text : text.substring(0, length - 1) + "…";
    }
}
