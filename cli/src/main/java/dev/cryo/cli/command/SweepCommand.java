package dev.cryo.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryo.cli.CryoCli;
import dev.cryo.cli.api.Service;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.LinkedHashMap;
import java.util.Map;

/** {@code ./cryo sweep [--catalog c [--namespace n]]}: the scanner's sweep, now. */
@Command(name = "sweep", description = {"Sweep now: ask the scanner for a scan of every table, of one catalog or of one "
        + "namespace, without waiting for the scheduled sweep (cryo.scanner.sweep-interval).",
        "The scans are sweeps: their plans wait out the cooldown like the event flow's. Follow them with ./cryo tables."})
public final class SweepCommand extends BaseCommand {

    @Option(names = "--catalog", description = "Only this catalog (default: every catalog)")
    String catalog;

    @Option(names = "--namespace", description = "Only this namespace of the catalog, and the namespaces under it")
    String namespace;

    @Override
    public Integer call() {
        Map<String, String> body = new LinkedHashMap<>();
        if (catalog != null) {
            body.put("catalog", catalog);
        }
        if (namespace != null) {
            body.put("namespace", namespace);
        }
        JsonNode swept = api().postAsOperator(Service.SCANNER, "/api/v1/sweeps", body);
        if (json) {
            printJson(swept);
        } else {
            out().printf("asked for a scan of %d table(s)%s%s, as %s%n", swept.path("tables").asInt(),
                    catalog == null ? " in every catalog" : " of catalog " + catalog,
                    namespace == null ? "" : ", namespace " + namespace, swept.path("requestedBy").asText());
            swept.path("catalogs").fields().forEachRemaining(entry -> out().printf("  %-24s %d table(s)%n",
                    entry.getKey(), entry.getValue().asInt()));
            swept.path("failures").forEach(failure -> out().printf("  not swept: %s%n", failure.asText()));
            out().flush();
        }
        return swept.path("failures").isEmpty() ? CryoCli.HEALTHY : CryoCli.FINDINGS;
    }
}
