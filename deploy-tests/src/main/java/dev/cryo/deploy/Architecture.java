package dev.cryo.deploy;

import dev.cryo.contracts.Topics;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * The services and topics that docs/ARCHITECTURE.md names, read from its tables "Topics and keys"
 * and "Services". A module of the services table that is not a Quarkus application (contracts) is
 * a library, not a service to deploy. The deploy files must agree with it, and the doc with the
 * code ({@link #fromCode}: contracts' {@code Topics.all()} and the root pom's Quarkus modules).
 *
 * @param services module folders of the deployable services, e.g. {@code scanner-svc}, {@code console}
 * @param topics topic names, the dead-letter pattern expanded for every consuming service
 */
public record Architecture(List<String> services, List<String> topics) {

    private static final Pattern TABLE_ROW = Pattern.compile("^\\|\\s*`?([^|`]+?)`?\\s*\\|");
    private static final Pattern TOPIC = Pattern.compile("cryo\\.[a-z0-9<>.-]+\\.v[0-9]+");
    private static final Pattern MODULE = Pattern.compile("[a-z][a-z0-9-]*");

    public Architecture {
        services = List.copyOf(services);
        topics = List.copyOf(topics);
    }

    public static Architecture read(RepositoryLayout repository) {
        Path file = repository.architecture();
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
        Set<String> topics = new LinkedHashSet<>();
        for (String cell : firstCells(lines, "## Topics and keys")) {
            if (!TOPIC.matcher(cell).matches()) {
                continue;
            }
            if (cell.contains("<service>")) {
                Topics.CONSUMING_SERVICES.forEach(service -> topics.add(cell.replace("<service>", service)));
            } else {
                topics.add(cell);
            }
        }
        List<String> services = new ArrayList<>();
        for (String cell : firstCells(lines, "## Services")) {
            if (MODULE.matcher(cell).matches() && isQuarkusApplication(repository, cell)) {
                services.add(cell);
            }
        }
        requireNonNull(file);
        if (topics.isEmpty() || services.isEmpty()) {
            throw new IllegalStateException("Cannot read the services and topics of " + file
                    + ": its tables \"Services\" and \"Topics and keys\" gave " + services + " and " + topics);
        }
        return new Architecture(services, List.copyOf(topics));
    }

    /** The topics contracts defines and the modules of the root pom that are Quarkus applications. */
    static Architecture fromCode(RepositoryLayout repository) {
        List<String> topics = Topics.all().stream().map(Topics.Spec::name).toList();
        List<String> services = repository.modules().stream()
                .filter(module -> isQuarkusApplication(repository, module)).toList();
        return new Architecture(services, topics);
    }

    private static List<String> firstCells(List<String> lines, String heading) {
        List<String> cells = new ArrayList<>();
        boolean inSection = false;
        for (String line : lines) {
            if (line.startsWith("## ")) {
                inSection = line.trim().equals(heading);
                continue;
            }
            Matcher row = TABLE_ROW.matcher(line);
            if (inSection && row.find()) {
                cells.add(row.group(1).trim());
            }
        }
        return cells;
    }

    private static boolean isQuarkusApplication(RepositoryLayout repository, String module) {
        Path pom = repository.module(module).resolve("pom.xml");
        try {
            return Files.isRegularFile(pom) && Files.readString(pom).contains("<artifactId>quarkus-maven-plugin</artifactId>");
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + pom, e);
        }
    }
}
