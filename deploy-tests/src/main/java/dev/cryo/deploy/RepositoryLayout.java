package dev.cryo.deploy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.io.UncheckedIOException;
import java.io.IOException;
import java.util.regex.Pattern;
import java.util.regex.Matcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Where the repository's deployment files are. Tests run with the module folder as working
 * directory (Surefire); the root is the nearest parent holding {@code deploy/k8s} and {@code contracts}.
 */
public record RepositoryLayout(Path root) {

    public RepositoryLayout {
        requireNonNull(root, "root is null");
    }

    /** The repository that contains the working directory. */
    public static RepositoryLayout locate() {
        Path start = Path.of("").toAbsolutePath();
        for (Path candidate = start; candidate != null; candidate = candidate.getParent()) {
            if (Files.isDirectory(candidate.resolve("deploy/k8s")) && Files.isDirectory(candidate.resolve("contracts"))) {
                return new RepositoryLayout(candidate);
            }
        }
        throw new IllegalStateException("Cannot find the repository root: no parent of " + start
                + " holds deploy/k8s and contracts");
    }

    public Path composeFile() {
        return root.resolve("docker-compose.yml");
    }

    public Path kubernetes() {
        return root.resolve("deploy/k8s");
    }

    public Path overlay(String name) {
        return kubernetes().resolve("overlays").resolve(name);
    }

    public Path topicManifests() {
        return kubernetes().resolve("components/strimzi/topics.yaml");
    }

    public Path userManifests() {
        return kubernetes().resolve("components/strimzi/users.yaml");
    }

    public Path dashboard() {
        return kubernetes().resolve("components/monitoring/cryo-dashboard.json");
    }

    public Path module(String module) {
        return root.resolve(module);
    }

    /**
     * The architecture the deploy files must agree with: {@code docs/ARCHITECTURE.md}, or
     * {@code -Dcryo.architecture=<file>}.
     *
     * @throws IllegalStateException when the file is missing
     */
    public Path architecture() {
        String override = System.getProperty("cryo.architecture");
        Path file = override != null && !override.isBlank() ? Path.of(override) : root.resolve("docs/ARCHITECTURE.md");
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException("Cannot read ARCHITECTURE.md at " + file
                    + (override != null && !override.isBlank() ? " (-Dcryo.architecture)" : "") + ": no such file");
        }
        return file;
    }

    /** The modules the root pom lists, in its order. */
    public List<String> modules() {
        Path pom = root.resolve("pom.xml");
        try {
            Matcher module = Pattern.compile("<module>([^<]+)</module>").matcher(Files.readString(pom));
            List<String> modules = new ArrayList<>();
            while (module.find()) {
                modules.add(module.group(1).trim());
            }
            return modules;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + pom, e);
        }
    }
}
