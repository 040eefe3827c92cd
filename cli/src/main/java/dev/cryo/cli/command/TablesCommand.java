package dev.cryo.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cryo.cli.CryoCli;
import dev.cryo.cli.api.ApiClient;
import dev.cryo.cli.api.Service;
import dev.cryo.cli.text.Formats;
import dev.cryo.cli.text.TextTable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** {@code ./cryo tables}: the scorer's listing of every graded table. */
@Command(name = "tables", description = {"Every graded table: grade, score, worst finding, worst first.",
        "Filter with --grade, --catalog, --namespace; sort with --sort and --order.",
        "Exit 1 when a listed table has findings."})
public final class TablesCommand extends BaseCommand {

    /** The scorer's largest page. */
    static final int PAGE = 1000;

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

        if (json) {
            ObjectNode result = api().json().createObjectNode();
            result.put("total", total);
            ArrayNode rows = result.putArray("tables");
            tables.forEach(rows::add);
            printJson(result);
        } else if (tables.isEmpty()) {
            out().println("No graded table" + (total > 0 ? " on this page" : " yet") + ". The scanner finds the tables of "
                    + "its catalogs within seconds of a commit; see ./cryo status.");
            out().flush();
        } else {
            print(tables, total);
        }
        boolean findings = tables.stream().anyMatch(table -> table.hasNonNull("topDeduction"));
        return findings ? CryoCli.FINDINGS : CryoCli.HEALTHY;
    }

    private void print(List<JsonNode> tables, long total) {
        TextTable table = new TextTable("TABLE", "GRADE", "SCORE", "WORST FINDING", "FIX", "GRADED");
        Map<String, Integer> byGrade = new TreeMap<>();
        for (JsonNode row : tables) {
            JsonNode top = row.path("topDeduction");
            String finding = top.isObject() ? top.path("check").asText() + ": " + shorten(top.path("explanation").asText(), 72)
                    : "none";
            table.row(row.path("table").asText(), row.path("grade").asText(), row.path("score").asInt(), finding,
                    top.isObject() ? top.path("fix").asText() : null, Formats.ago(instant(row, "gradedAt"), now()));
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
