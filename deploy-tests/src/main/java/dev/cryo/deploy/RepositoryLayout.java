package dev.cryo.deploy;

import java.nio.file.Files;
import java.nio.file.Path;

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

    public Path dashboard() {
        return kubernetes().resolve("components/monitoring/cryo-dashboard.json");
    }

    public Path module(String module) {
        return root.resolve(module);
    }

    /**
     * ARCHITECTURE.md lives in the project's shared design folder, beside the checkout (CI copies
     * {@code shared/} next to its clone); {@code -Dcryo.architecture=<file>} points elsewhere.
     */
    public Path architecture() {
        String override = System.getProperty("cryo.architecture");
        if (override != null && !override.isBlank()) {
            return Path.of(override);
        }
        Path beside = root.resolveSibling("shared").resolve("design/ARCHITECTURE.md");
        if (Files.isRegularFile(beside)) {
            return beside;
        }
        throw new IllegalStateException("Cannot find ARCHITECTURE.md: looked for " + beside
                + "; set -Dcryo.architecture=<path to ARCHITECTURE.md>");
    }
}
