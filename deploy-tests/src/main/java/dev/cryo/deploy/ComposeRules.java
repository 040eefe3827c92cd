package dev.cryo.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import static java.util.Objects.requireNonNull;

/**
 * The rules docker-compose.yml must follow:
 *
 * <ol>
 *   <li>it is valid against the Compose Specification's JSON Schema (vendored, see NOTICE.md);</li>
 *   <li>the infrastructure is there: Kafka from the Apache image, PostgreSQL, the Iceberg REST catalog,
 *       Trino, Spark Connect behind a profile, and a one-shot that creates the topics with Cryo's TopicAdmin;</li>
 *   <li>every service of ARCHITECTURE.md is built from its module's src/main/docker/Dockerfile.jvm, waits for
 *       what it needs, checks its health on /q/health, and every variable it sets is one of its keys;</li>
 *   <li>every container has resource limits;</li>
 *   <li>Kafka requires SASL/SCRAM and ACLs, and every client logs in as its own principal with a password
 *       from .env ({@link KafkaBrokerSecurity}, {@link KafkaCredentials}).</li>
 * </ol>
 */
public final class ComposeRules {

    static final String DOCKERFILE = "src/main/docker/Dockerfile.jvm";

    private final ValidationContext context;
    private final JsonSchema schema;

    public ComposeRules(ValidationContext context) {
        this.context = requireNonNull(context, "context is null");
        // loaded by its location: the schema's relative $id (compose_spec.json) resolves against it
        this.schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V7)
                .getSchema(SchemaLocation.of("classpath:compose/compose-spec.json"));
    }

    /**
     * A compose file as the JSON tree Compose sees: YAML anchors and merge keys ({@code <<}) resolved,
     * variables ({@code ${…}}) left as written.
     */
    public static JsonNode parse(String yaml) {
        LoaderOptions options = new LoaderOptions();
        options.setMaxAliasesForCollections(200);
        Object document = new Yaml(options).load(yaml);
        return Manifest.YAML.valueToTree(document);
    }

    public List<String> problems(JsonNode compose) {
        List<String> problems = new ArrayList<>();
        schema.validate(compose).stream().map(ValidationMessage::getMessage).sorted()
                .forEach(message -> problems.add("Compose Specification: " + message));
        JsonNode services = compose.path("services");
        infrastructure(services, problems);
        kafka(services, problems);
        for (String module : context.architecture().services()) {
            JsonNode service = services.path(module);
            if (service.isMissingNode()) {
                problems.add("no compose service " + module);
                continue;
            }
            cryoService(module, service, services, problems);
        }
        for (Iterator<Map.Entry<String, JsonNode>> all = services.fields(); all.hasNext(); ) {
            Map.Entry<String, JsonNode> service = all.next();
            JsonNode limits = service.getValue().path("deploy").path("resources").path("limits");
            if (limits.path("cpus").asText("").isEmpty() || limits.path("memory").asText("").isEmpty()) {
                problems.add(service.getKey() + ": no deploy.resources.limits.cpus and .memory");
            }
        }
        return problems;
    }

    private void infrastructure(JsonNode services, List<String> problems) {
        Map<String, String> images = new LinkedHashMap<>();
        images.put("kafka", "apache/kafka:");
        images.put("postgres", "postgres:");
        images.put("iceberg-rest", "apache/iceberg-rest-fixture:");
        images.put("trino", "trinodb/trino:");
        images.put("spark-connect", "apache/spark:");
        images.forEach((name, image) -> {
            if (!services.path(name).path("image").asText("").startsWith(image)) {
                problems.add(name + ": expected the image " + image + "<version>");
            }
            if (!services.path(name).has("healthcheck")) {
                problems.add(name + ": no healthcheck");
            }
        });
        if (!services.path("spark-connect").path("profiles").toString().contains("spark")) {
            problems.add("spark-connect: must be optional, behind the profile \"spark\"");
        }
        boolean topics = false;
        for (JsonNode service : services) {
            topics |= service.path("entrypoint").toString().contains("dev.cryo.contracts.kafka.TopicAdmin");
        }
        if (!topics) {
            problems.add("no service creates the topics with dev.cryo.contracts.kafka.TopicAdmin (contracts' Topics.all())");
        }
    }

    private void cryoService(String module, JsonNode service, JsonNode services, List<String> problems) {
        if (!service.path("build").path("context").asText().equals("./" + module)
                || !service.path("build").path("dockerfile").asText().equals(DOCKERFILE)) {
            problems.add(module + ": must be built from ./" + module + " with " + DOCKERFILE);
        }
        ServiceConfiguration configuration = context.configuration(module);
        Map<String, String> environment = environment(service.path("environment"));
        for (String variable : environment.keySet()) {
            configuration.rejection(variable).ifPresent(reason -> problems.add(module + ": " + reason + " (docker-compose.yml)"));
        }
        String superuser = environment(services.path("postgres").path("environment")).getOrDefault("POSTGRES_USER", "postgres");
        problems.addAll(DatabaseRoles.composeProblems(configuration, environment, superuser));
        if (KafkaCredentials.usesKafka(configuration) || environment.containsKey("KAFKA_BOOTSTRAP_SERVERS")) {
            problems.addAll(KafkaCredentials.composeProblems(module, environment,
                    KafkaCredentials.principalOf(configuration, environment), Optional.of(configuration)));
        }
        String port = configuration.effectiveValue("quarkus.http.port", environment).orElse("");
        JsonNode health = service.path("healthcheck").path("test");
        if (health.isMissingNode()) {
            problems.add(module + ": no healthcheck (it must ask localhost:" + port + "/q/health)");
        } else if (!health.toString().contains("localhost:" + port + "/q/health")) {
            problems.add(module + ": its healthcheck must ask localhost:" + port + "/q/health, not " + health);
        }
        Set<String> waitsFor = new TreeSet<>();
        service.path("depends_on").fieldNames().forEachRemaining(waitsFor::add);
        boolean usesPlatform = environment.containsKey("KAFKA_BOOTSTRAP_SERVERS");
        if (usesPlatform && !waitsFor.containsAll(List.of("postgres", "kafka-topics"))) {
            problems.add(module + ": must wait for postgres and kafka-topics, waits for " + waitsFor);
        }
        for (String dependency : waitsFor) {
            if (!services.has(dependency)) {
                problems.add(module + ": depends on " + dependency + ", which is not a service");
            }
            if (service.path("depends_on").path(dependency).path("condition").asText("").isEmpty()) {
                problems.add(module + ": its dependency on " + dependency + " names no condition");
            }
        }
    }

    /**
     * The broker requires SASL and enforces ACLs; the topic job logs in as the super user and provisions every
     * principal; any other container with KAFKA_BOOTSTRAP_SERVERS (Cryo's services are checked with their
     * configuration) names its own principal and password.
     */
    private void kafka(JsonNode services, List<String> problems) {
        problems.addAll(KafkaBrokerSecurity.composeBrokerProblems(environment(services.path("kafka").path("environment"))));
        for (Iterator<Map.Entry<String, JsonNode>> all = services.fields(); all.hasNext(); ) {
            Map.Entry<String, JsonNode> service = all.next();
            Map<String, String> environment = environment(service.getValue().path("environment"));
            if (service.getValue().path("entrypoint").toString().contains("dev.cryo.contracts.kafka.TopicAdmin")) {
                problems.addAll(KafkaBrokerSecurity.composeTopicJobProblems(service.getKey(),
                        service.getValue().path("entrypoint"), environment));
            } else if (environment.containsKey("KAFKA_BOOTSTRAP_SERVERS")
                    && !context.architecture().services().contains(service.getKey())) {
                String user = environment.get(KafkaCredentials.USER);
                if (user == null) {
                    problems.add(service.getKey() + ": uses Kafka but sets no " + KafkaCredentials.USER);
                } else {
                    problems.addAll(KafkaCredentials.composeProblems(service.getKey(), environment, user, Optional.empty()));
                }
            }
        }
    }

    /** A service's environment, written as a map or as a list of NAME=value. */
    static Map<String, String> environment(JsonNode environment) {
        Map<String, String> variables = new LinkedHashMap<>();
        if (environment.isObject()) {
            environment.fields().forEachRemaining(entry -> variables.put(entry.getKey(), entry.getValue().asText()));
        } else if (environment.isArray()) {
            for (JsonNode entry : environment) {
                String text = entry.asText();
                int equals = text.indexOf('=');
                variables.put(equals < 0 ? text : text.substring(0, equals), equals < 0 ? "" : text.substring(equals + 1));
            }
        }
        return variables;
    }

    /** A deep copy to break in tests. */
    public static ObjectNode copy(JsonNode compose) {
        return (ObjectNode) compose.deepCopy();
    }
}
