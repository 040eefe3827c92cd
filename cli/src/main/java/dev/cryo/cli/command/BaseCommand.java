package dev.cryo.cli.command;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.cryo.cli.CryoCli;
import dev.cryo.cli.api.ApiClient;
import dev.cryo.cli.api.CliException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.concurrent.Callable;

/** What every command shares: the services, the clock, {@code --json}, and where to print. */
abstract class BaseCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--json", description = "Print JSON for scripts instead of tables")
    boolean json;

    CryoCli cli() {
        return (CryoCli) spec.root().userObject();
    }

    ApiClient api() {
        return cli().api();
    }

    Instant now() {
        return cli().clock().instant();
    }

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    /** Progress and notes: on stdout for people, on stderr when stdout carries JSON. */
    PrintWriter progress() {
        return json ? spec.commandLine().getErr() : out();
    }

    void printJson(Object value) {
        try {
            out().println(api().json().writerWithDefaultPrettyPrinter().writeValueAsString(value));
            out().flush();
        } catch (JsonProcessingException e) {
            throw new CliException("Cannot print JSON: " + e.getMessage(), e);
        }
    }

    static String text(JsonNode node, String field) {
        JsonNode value = node.path(field);
        return value.isMissingNode() || value.isNull() ? null : value.asText();
    }

    static Instant instant(JsonNode node, String field) {
        String value = text(node, field);
        return value == null ? null : Instant.parse(value);
    }
}
