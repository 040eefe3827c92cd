package dev.cryo.deploy;

import dev.cryo.contracts.Topics;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static java.util.Objects.requireNonNull;

/**
 * What the deployment files are checked against: the repository's code (configuration keys),
 * ARCHITECTURE.md (services, topics) and contracts' topics.
 */
public final class ValidationContext {

    /**
     * The engines each service talks to (ARCHITECTURE.md "Engines"): the governor reads Trino's load,
     * executors run operations on Trino and Spark. No other service may reach an engine.
     */
    static final Map<String, List<String>> ENGINES = Map.of(
            "governor-svc", List.of("trino"),
            "executor-svc", List.of("trino", "spark-connect"));

    private final RepositoryLayout repository;
    private final Architecture architecture;
    private final List<Topics.Spec> topics;
    private final KindCatalog kinds = new KindCatalog();
    private final Map<String, ServiceConfiguration> configurations = new ConcurrentHashMap<>();

    public ValidationContext(RepositoryLayout repository, Architecture architecture, List<Topics.Spec> topics) {
        this.repository = requireNonNull(repository, "repository is null");
        this.architecture = requireNonNull(architecture, "architecture is null");
        this.topics = List.copyOf(topics);
    }

    /** The repository this machine checked out, ARCHITECTURE.md beside it, and {@link Topics#all()}. */
    public static ValidationContext ofRepository() {
        RepositoryLayout repository = RepositoryLayout.locate();
        return new ValidationContext(repository, Architecture.read(repository), Topics.all());
    }

    public RepositoryLayout repository() {
        return repository;
    }

    public Architecture architecture() {
        return architecture;
    }

    public List<Topics.Spec> topics() {
        return topics;
    }

    public KindCatalog kinds() {
        return kinds;
    }

    /** The configuration of a service module, read once. */
    public ServiceConfiguration configuration(String module) {
        return configurations.computeIfAbsent(module, name -> ServiceConfiguration.read(repository, name));
    }

    /** Whether the module depends on another Cryo module (itself included). */
    public boolean uses(String module, String dependency) {
        return ServiceConfiguration.modulesOf(repository, module).contains(dependency);
    }
}
