package dev.cryo.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cryo.cli.CryoCli;
import dev.cryo.cli.api.ApiClient;
import dev.cryo.cli.api.ApiError;
import dev.cryo.cli.api.CliException;
import dev.cryo.cli.api.Service;
import dev.cryo.cli.text.Formats;
import dev.cryo.contracts.Engine;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.PlannedOperation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** {@code ./cryo plan <table>}: the planner's plan with the SQL an engine would run. */
@Command(name = "plan", description = {"The table's maintenance plan with the SQL an engine would run.",
        "The planner's current plan (or, with --preview or when it has none, what it would plan now), chunk by",
        "chunk. Exit 1 when there is work to do, 0 when the table needs none."})
public final class PlanCommand extends BaseCommand {

    /** Partitions named per chunk in the human output (the SQL always addresses all of them). */
    static final int SHOWN_PARTITIONS = 6;

    @Parameters(paramLabel = "<table>", description = "catalog.namespace.table")
    String table;

    @Option(names = "--engine", description = "native, trino or spark (default: the table's engine at the governor)")
    String engine;

    @Option(names = "--preview", description = "What the planner would plan now from the latest grade (stores nothing)")
    boolean preview;

    @Override
    public Integer call() {
        TableId tableId = parse(table);
        Plan plan = preview ? preview(tableId) : current(tableId);
        Engine chosen = engine == null ? tableEngine(tableId) : parseEngine(engine);
        List<SqlPreview.Step> steps = new SqlPreview(cli().clock()).steps(tableId, plan.operations(), chosen);
        if (json) {
            ObjectNode result = api().json().createObjectNode();
            result.put("table", tableId.toString());
            result.put("source", plan.source());
            result.put("engine", chosen.id());
            result.set("plan", plan.answer());
            result.set("steps", api().json().valueToTree(steps));
            printJson(result);
        } else {
            print(plan, chosen, steps, out());
        }
        return plan.operations().isEmpty() ? CryoCli.HEALTHY : CryoCli.FINDINGS;
    }

    /** A plan as the planner answered it, with its operations read as contracts' records. */
    record Plan(String source, JsonNode answer, List<PlannedOperation> operations, List<String> notes) {
    }

    private Plan current(TableId tableId) {
        try {
            JsonNode view = api().get(Service.PLANNER, "/api/v1/tables/" + ApiClient.segment(tableId.toString()) + "/plan");
            return new Plan("current", view, operations(view.path("plan").path("operations")), List.of());
        } catch (ApiError e) {
            if (!e.isNotFound()) {
                throw e;
            }
            progress().println("No stored plan: " + e.getMessage());
            progress().println("What the planner would plan now:");
            progress().flush();
            return preview(tableId);
        }
    }

    private Plan preview(TableId tableId) {
        JsonNode preview = api().postRead(Service.PLANNER, "/api/v1/plans/preview", Map.of("table", tableId.toString()));
        List<String> notes = new ArrayList<>();
        preview.path("notes").forEach(note -> notes.add(note.asText()));
        return new Plan("preview", preview, operations(preview.path("operations")), notes);
    }

    private List<PlannedOperation> operations(JsonNode operations) {
        List<PlannedOperation> read = new ArrayList<>();
        for (JsonNode operation : operations) {
            try {
                read.add(api().json().treeToValue(operation, PlannedOperation.class));
            } catch (IOException | IllegalArgumentException e) {
                throw new CliException("Cannot read the planner's operation " + operation.path("operation").asText()
                        + ": " + e.getMessage(), e);
            }
        }
        return read;
    }

    private Engine tableEngine(TableId tableId) {
        try {
            JsonNode view = api().get(Service.GOVERNOR, "/api/v1/tables/" + ApiClient.segment(tableId.toString()));
            return Engine.fromId(view.path("engine").asText("native"));
        } catch (CliException e) {
            progress().println("note: " + e.getMessage() + "; showing the native engine");
            progress().flush();
            return Engine.NATIVE;
        }
    }

    private void print(Plan plan, Engine chosen, List<SqlPreview.Step> steps, PrintWriter out) {
        JsonNode answer = plan.answer();
        if ("current".equals(plan.source())) {
            JsonNode body = answer.path("plan");
            out.printf("Plan %s of %s: %s since %s%n", answer.path("planId").asText(), answer.path("table").asText(),
                    answer.path("status").asText().toLowerCase(java.util.Locale.ROOT),
                    Formats.time(instant(answer, "statusChangedAt"), cli().zone()));
            out.printf("  planned %s from grade %s %d, expected score after it %d%s%n",
                    Formats.time(instant(body, "plannedAt"), cli().zone()), body.path("grade").asText(),
                    body.path("score").asInt(), body.path("expectedScore").asInt(),
                    body.hasNonNull("actor") ? " (asked by " + body.path("actor").asText() + ")" : "");
        } else {
            out.printf("Preview for %s: grade %s %d, expected score after it %d%s%n", answer.path("table").asText(),
                    answer.path("grade").asText(), answer.path("score").asInt(), answer.path("expectedScore").asInt(),
                    answer.path("planned").asBoolean() ? "" : " (no plan)");
            plan.notes().forEach(note -> out.println("  note: " + note));
        }
        if (plan.operations().isEmpty()) {
            out.println("Nothing to do.");
            out.flush();
            return;
        }
        out.printf("Engine: %s%s%n", chosen.id(), engine == null ? " (the table's engine; --engine native|trino|spark to choose)" : "");
        int number = 0;
        for (PlannedOperation operation : plan.operations()) {
            number++;
            out.printf("%n%d. %s  for %s%s%n", number, operation.operation().id(), operation.reasons(),
                    estimate(operation));
            String parameters = parameters(operation);
            if (!parameters.isEmpty()) {
                out.println("   " + parameters);
            }
            for (SqlPreview.Step step : steps) {
                if (!step.operation().equals(operation.operation().id())) {
                    continue;
                }
                if (step.chunk() != null) {
                    List<String> shown = step.partitions().subList(0, Math.min(SHOWN_PARTITIONS, step.partitions().size()));
                    int more = step.partitions().size() - shown.size();
                    out.printf("   chunk %d: %s%s%n", step.chunk(), String.join(", ", shown),
                            more > 0 ? " and " + more + " more" : "");
                }
                step.statements().forEach(statement -> out.println("     " + statement.replace("\n", "\n     ") + ";"));
                if (step.note() != null) {
                    out.println("     -- " + step.note());
                }
            }
        }
        out.flush();
    }

    private static String estimate(PlannedOperation operation) {
        if (operation.chunks().isEmpty()) {
            return "";
        }
        return String.format(java.util.Locale.ROOT, " — %d chunk%s, %d files (%s) in, about %d out, %d delete files",
                operation.chunks().size(), operation.chunks().size() == 1 ? "" : "s", operation.estimate().inputFiles(),
                Formats.bytes(operation.estimate().inputBytes()), operation.estimate().expectedOutputFiles(),
                operation.estimate().deleteFiles());
    }

    private static String parameters(PlannedOperation operation) {
        List<String> parts = new ArrayList<>();
        var parameters = operation.parameters();
        if (parameters.targetFileSizeBytes() != null) {
            parts.add("target file size " + Formats.bytes(parameters.targetFileSizeBytes()));
        }
        if (parameters.snapshotRetention() != null) {
            parts.add("keep snapshots of the last " + Formats.duration(parameters.snapshotRetention()));
        }
        if (parameters.retainLast() != null) {
            parts.add("and at least the last " + parameters.retainLast());
        }
        if (parameters.orphanAgeFloor() != null) {
            parts.add("only files older than " + Formats.duration(parameters.orphanAgeFloor()));
        }
        return String.join(", ", parts);
    }

    static TableId parse(String table) {
        try {
            return TableId.parse(table);
        } catch (IllegalArgumentException e) {
            throw new CliException(e.getMessage());
        }
    }

    static Engine parseEngine(String engine) {
        try {
            return Engine.fromId(engine);
        } catch (IllegalArgumentException e) {
            throw new CliException("Cannot use engine '" + engine + "': expected native, trino or spark");
        }
    }
}
