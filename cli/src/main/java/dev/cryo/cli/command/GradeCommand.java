package dev.cryo.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryo.cli.CryoCli;
import dev.cryo.cli.api.ApiClient;
import dev.cryo.cli.api.Service;
import dev.cryo.cli.text.Formats;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** {@code ./cryo grade <table>}: the table's grade as a to-do list. */
@Command(name = "grade", description = {"A table's grade as a to-do list.",
        "Every lost point is an item: the check, what was measured against which limit, and the operation",
        "that wins the points back. Exit 1 when the table has findings. --json prints the scorer's answer unchanged."})
public final class GradeCommand extends BaseCommand {

    @Parameters(paramLabel = "<table>", description = "catalog.namespace.table")
    String table;

    @Override
    public Integer call() {
        JsonNode grade = api().get(Service.SCORER, "/api/v1/tables/" + ApiClient.segment(table));
        if (json) {
            printJson(grade);
        } else {
            print(grade, out(), now(), cli().zone());
        }
        return grade.path("deductions").isEmpty() ? CryoCli.HEALTHY : CryoCli.FINDINGS;
    }

    static void print(JsonNode grade, PrintWriter out, java.time.Instant now, java.time.ZoneId zone) {
        out.printf("%s  grade %s  score %d/100%n", grade.path("table").asText(), grade.path("grade").asText(),
                grade.path("score").asInt());
        out.printf("  scanned %s, graded %s (%s), size scale %.2f%n", Formats.time(instant(grade, "scannedAt"), zone),
                Formats.time(instant(grade, "gradedAt"), zone), Formats.ago(instant(grade, "gradedAt"), now),
                grade.path("sizeScale").asDouble(1));
        JsonNode deductions = grade.path("deductions");
        if (deductions.isEmpty()) {
            out.println();
            out.println("Nothing to do: no check takes a point off this table.");
        } else {
            int points = 0;
            for (JsonNode deduction : deductions) {
                points += deduction.path("points").asInt();
            }
            out.println();
            out.printf("To do (%d finding%s, %d points):%n", deductions.size(), deductions.size() == 1 ? "" : "s", points);
            for (JsonNode deduction : deductions) {
                String unit = deduction.path("unit").asText();
                out.printf("  [ ] %-20s %-8s -%-3d %s, limit %s   fix: %s%n", deduction.path("check").asText(),
                        deduction.path("severity").asText().toLowerCase(Locale.ROOT), deduction.path("points").asInt(),
                        Formats.measured(deduction.path("measured").asDouble(), unit),
                        Formats.measured(deduction.path("limit").asDouble(), unit), deduction.path("fix").asText());
                out.printf("      %s%n", deduction.path("explanation").asText());
            }
        }
        JsonNode held = grade.path("held");
        if (!held.isEmpty()) {
            out.println();
            out.println("Held by policy (no points; no operation can win them back until the setting changes):");
            held.forEach(finding -> {
                out.printf("  %-20s held by %s%n", finding.path("check").asText(), finding.path("heldBy").asText());
                out.printf("      %s%n", finding.path("explanation").asText());
            });
        }
        JsonNode notEvaluated = grade.path("notEvaluated");
        if (!notEvaluated.isEmpty()) {
            List<String> checks = new ArrayList<>();
            notEvaluated.forEach(item -> checks.add(item.path("check").asText() + " (" + item.path("reason").asText() + ")"));
            out.println();
            out.println("Not evaluated: " + String.join("; ", checks));
        }
        if (!deductions.isEmpty()) {
            List<String> fixes = new ArrayList<>();
            grade.path("fixes").forEach(fix -> fixes.add(fix.asText()));
            out.println();
            out.printf("Fix now: ./cryo fix %s%s%n", grade.path("table").asText(),
                    fixes.isEmpty() ? "" : "   (" + String.join(", ", fixes) + ")");
        }
        out.flush();
    }
}
