package dev.cryo.deploy;


import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * The configuration keys one service reads, derived from its code and the code of the Cryo modules it
 * depends on (never from a hand-kept list):
 *
 * <ul>
 *   <li>every key of every {@code @ConfigMapping} interface, walked like SmallRye Config walks it: method
 *       names in kebab case or {@code @WithName}, {@code @WithParentName}, nested interfaces, and
 *       {@code Map} keys as wildcards;</li>
 *   <li>every {@code @ConfigProperty(name = …)};</li>
 *   <li>every key of {@code application.properties} and {@code META-INF/microprofile-config.properties}
 *       (profiles stripped), and every environment variable those files read through {@code ${NAME:…}};</li>
 *   <li>{@link #IMAGE_VARIABLES}: what the container image's start script reads.</li>
 * </ul>
 *
 * @param module the service's module folder, e.g. {@code scanner-svc}
 * @param keys the keys, with where each was found
 * @param variables environment variables read by name in the properties files
 * @param defaults the value of a key when nothing overrides it ({@code @WithDefault}, or the properties file)
 * @param defaultHttpPort the port the service listens on when nothing overrides it
 */
public record ServiceConfiguration(String module, List<ConfigKey> keys, Set<String> variables,
                                   Map<String, String> defaults, int defaultHttpPort) {

    /**
     * Variables of the container image rather than of Quarkus: the UBI OpenJDK image's run-java.sh
     * reads them to build the JVM command line (src/main/docker/Dockerfile.jvm).
     */
    public static final Set<String> IMAGE_VARIABLES = Set.of(
            "JAVA_OPTS_APPEND", "JAVA_MAX_MEM_RATIO", "JAVA_INITIAL_MEM_RATIO", "JAVA_APP_JAR");

    private static final Pattern EXPRESSION_VARIABLE = Pattern.compile("\\$\\{([A-Z][A-Z0-9_]*)(?::|})");
    private static final Pattern HTTP_PORT_DEFAULT = Pattern.compile("(?:\\$\\{[A-Z0-9_]+:)?(\\d+)}?");
    private static final Pattern CRYO_DEPENDENCY = Pattern.compile(
            "<dependency>\\s*<groupId>dev\\.cryo</groupId>\\s*<artifactId>cryo-([a-z0-9-]+)</artifactId>(.*?)</dependency>",
            Pattern.DOTALL);

    public ServiceConfiguration {
        requireNonNull(module, "module is null");
        keys = List.copyOf(keys);
        variables = Set.copyOf(variables);
        defaults = Map.copyOf(defaults);
    }

    /** Reads the service's configuration from the repository's sources. */
    public static ServiceConfiguration read(RepositoryLayout repository, String module) {
        List<String> modules = modulesOf(repository, module);
        List<ConfigKey> keys = new ArrayList<>();
        Set<String> variables = new LinkedHashSet<>(IMAGE_VARIABLES);
        Map<String, String> defaults = new HashMap<>();
        Map<String, String> fileValues = new HashMap<>();
        Properties serviceProperties = new Properties();
        for (String source : modules) {
            Path root = repository.module(source);
            keys.addAll(ConfigMappingKeys.of(root.resolve("src/main/java"), source, defaults));
            for (Path file : List.of(root.resolve("src/main/resources/application.properties"),
                    root.resolve("src/main/resources/META-INF/microprofile-config.properties"))) {
                if (Files.isRegularFile(file)) {
                    Properties properties = load(file);
                    if (source.equals(module) && file.endsWith("application.properties")) {
                        serviceProperties = properties;
                    }
                    String origin = repository.root().relativize(file).toString();
                    for (String name : properties.stringPropertyNames()) {
                        keys.add(ConfigKey.literal(withoutProfile(name), origin));
                        if (!name.startsWith("%")) {
                            // modules come service first: its own file wins over its dependencies'
                            fileValues.putIfAbsent(name, properties.getProperty(name));
                        }
                        Matcher variable = EXPRESSION_VARIABLE.matcher(properties.getProperty(name));
                        while (variable.find()) {
                            variables.add(variable.group(1));
                        }
                    }
                }
            }
        }
        // a properties file overrides a mapping's @WithDefault
        defaults.putAll(fileValues);
        String port = serviceProperties.getProperty("quarkus.http.port");
        if (port == null) {
            throw new IllegalStateException("Cannot read " + module + "'s HTTP port: its application.properties sets no quarkus.http.port");
        }
        Matcher portDefault = HTTP_PORT_DEFAULT.matcher(port.trim());
        if (!portDefault.matches()) {
            throw new IllegalStateException("Cannot read " + module + "'s HTTP port from quarkus.http.port=" + port);
        }
        return new ServiceConfiguration(module, keys, variables, defaults, Integer.parseInt(portDefault.group(1)));
    }

    /**
     * Whether a variable names a key of this service; empty when it does, else the reason it does not.
     */
    public Optional<String> rejection(String variable) {
        if (variables.contains(variable)) {
            return Optional.empty();
        }
        if (EnvironmentNames.isEnvironmentForm(variable)) {
            Optional<ConfigKey> literal = keys.stream()
                    .filter(key -> !key.hasWildcard() && key.matchesEnvironmentName(variable)).findFirst();
            if (literal.isPresent()) {
                return Optional.empty();
            }
            Optional<ConfigKey> mapped = keys.stream()
                    .filter(key -> key.hasWildcard() && key.matchesEnvironmentName(variable))
                    .findFirst();
            if (mapped.isPresent() && mapped.get().endsInFreeFormMap()) {
                return Optional.of(variable + " falls under " + mapped.get().name() + ", whose keys may hold '.' or '-':"
                        + " the upper-case form cannot say which, so name the variable after the property itself"
                        + " (e.g. cryo.catalogs.<name>.io-impl)");
            }
            if (mapped.isPresent()) {
                return Optional.empty();
            }
        } else if (keys.stream().anyMatch(key -> key.matchesPropertyName(variable))) {
            return Optional.empty();
        }
        return Optional.of(variable + " is not a configuration key of " + module + suggestion(variable));
    }

    /**
     * The value a key takes given the environment a manifest sets: the variable named after the key (in
     * either form), else the properties file's value or the mapping's default, with a {@code ${NAME:default}}
     * expression resolved against the same environment.
     */
    public Optional<String> effectiveValue(String key, Map<String, String> environment) {
        String set = environment.getOrDefault(key, environment.get(EnvironmentNames.environmentForm(key)));
        if (set != null) {
            return Optional.of(set);
        }
        String fallback = defaults.get(key);
        if (fallback == null) {
            return Optional.empty();
        }
        Matcher expression = Pattern.compile("\\$\\{([^:}]+)(?::([^}]*))?}").matcher(fallback);
        if (expression.matches()) {
            String name = expression.group(1);
            if (environment.containsKey(name)) {
                return Optional.of(environment.get(name));
            }
            Optional<String> referenced = name.contains(".") ? effectiveValue(name, environment) : Optional.empty();
            return referenced.isPresent() ? referenced : Optional.ofNullable(expression.group(2));
        }
        return Optional.of(fallback);
    }

    private String suggestion(String variable) {
        String wanted = EnvironmentNames.environmentForm(variable);
        return keys.stream()
                .filter(key -> !key.hasWildcard())
                .map(key -> EnvironmentNames.environmentForm(key.name()))
                .distinct()
                .min(Comparator.comparingInt(candidate -> distance(candidate, wanted)))
                .filter(candidate -> distance(candidate, wanted) <= Math.max(3, wanted.length() / 4))
                .map(candidate -> " (did you mean " + candidate + "?)")
                .orElse("");
    }

    /** The Cryo modules whose configuration the service reads: itself and its dev.cryo dependencies, transitively. */
    static List<String> modulesOf(RepositoryLayout repository, String module) {
        LinkedHashSet<String> found = new LinkedHashSet<>();
        collect(repository, module, found);
        return List.copyOf(found);
    }

    private static void collect(RepositoryLayout repository, String module, Set<String> found) {
        Path pom = repository.module(module).resolve("pom.xml");
        if (!Files.isRegularFile(pom) || !found.add(module)) {
            return;
        }
        Matcher dependency = CRYO_DEPENDENCY.matcher(read(pom));
        while (dependency.find()) {
            boolean testOnly = dependency.group(2).contains("<scope>test</scope>");
            if (!testOnly) {
                collect(repository, dependency.group(1), found);
            }
        }
    }

    private static Properties load(Path file) {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
        return properties;
    }

    private static String withoutProfile(String key) {
        if (key.startsWith("%")) {
            int dot = key.indexOf('.');
            return dot < 0 ? key : key.substring(dot + 1);
        }
        return key;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
    }

    private static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j] + 1, current[j - 1] + 1));
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
