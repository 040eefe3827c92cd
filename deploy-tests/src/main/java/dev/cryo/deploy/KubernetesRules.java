package dev.cryo.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryo.contracts.Topics;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import static java.util.Objects.requireNonNull;

/**
 * The rules a rendered overlay must follow. {@link #problems(List)} lists every broken rule, so a
 * test shows them all at once:
 *
 * <ol>
 *   <li>every object parses as the kind it claims ({@link KindCatalog});</li>
 *   <li>every service of ARCHITECTURE.md has a Deployment, Service, PodDisruptionBudget and NetworkPolicy,
 *       and a ServiceMonitor when the overlay monitors and the service has metrics;</li>
 *   <li>every environment variable a Deployment sets (env, envFrom ConfigMaps) is a configuration key of
 *       its service ({@link ServiceConfiguration#rejection(String)}), the container listens on the
 *       service's port, probes use {@code /q/health}, resources are requested and limited;</li>
 *   <li>KafkaTopics are exactly contracts' {@link Topics#all()} (names, partitions, configs) and cover
 *       every topic of ARCHITECTURE.md; any topic a manifest names exists there;</li>
 *   <li>each NetworkPolicy lets its service reach only DNS, Kafka, PostgreSQL, its engines, the catalogs;</li>
 *   <li>executors scale (KEDA or HPA, not both) up to min(partitions of cryo.jobs.admitted.v1,
 *       ceil(governor slots / jobs per executor));</li>
 *   <li>Kafka requires SCRAM and ACLs, its KafkaUsers are contracts' principals, and each service reads its
 *       password from its own KafkaUser's Secret ({@link KafkaBrokerSecurity}, {@link KafkaCredentials}).</li>
 * </ol>
 */
public final class KubernetesRules {

    private final ValidationContext context;

    public KubernetesRules(ValidationContext context) {
        this.context = requireNonNull(context, "context is null");
    }

    public List<String> problems(List<Manifest> manifests) {
        List<String> problems = new ArrayList<>();
        for (Manifest manifest : manifests) {
            problems.addAll(context.kinds().problems(manifest));
        }
        services(manifests, problems);
        topics(manifests, problems);
        problems.addAll(ExecutorScalingRules.problems(context, manifests));
        problems.addAll(KafkaBrokerSecurity.strimziProblems(manifests));
        return problems;
    }

    // --- services

    private void services(List<Manifest> manifests, List<String> problems) {
        boolean monitored = manifests.stream().anyMatch(manifest -> manifest.kind().equals("ServiceMonitor"));
        for (String module : context.architecture().services()) {
            Optional<Manifest> deployment = find(manifests, "Deployment", module);
            if (deployment.isEmpty()) {
                problems.add(module + ": no Deployment named " + module);
                continue;
            }
            ServiceConfiguration configuration = context.configuration(module);
            deployment(deployment.get(), configuration, manifests, problems);
            if (find(manifests, "Service", module).isEmpty()) {
                problems.add(module + ": no Service named " + module);
            }
            Map<String, String> podLabels = labels(deployment.get().body().path("spec").path("template").path("metadata"));
            if (manifests.stream().noneMatch(manifest -> manifest.kind().equals("PodDisruptionBudget")
                    && selects(manifest.body().path("spec").path("selector"), podLabels))) {
                problems.add(module + ": no PodDisruptionBudget selects its pods");
            }
            List<Manifest> policies = manifests.stream().filter(manifest -> manifest.kind().equals("NetworkPolicy")
                    && selects(manifest.body().path("spec").path("podSelector"), podLabels)).toList();
            if (policies.isEmpty()) {
                problems.add(module + ": no NetworkPolicy selects its pods");
            }
            policies.forEach(policy -> egress(module, policy, problems));
            boolean hasMetrics = configuration.keys().stream()
                    .anyMatch(key -> key.name().equals("quarkus.micrometer.export.prometheus.enabled"));
            if (monitored && hasMetrics && manifests.stream().noneMatch(manifest -> manifest.kind().equals("ServiceMonitor")
                    && selects(manifest.body().path("spec").path("selector"), labels(find(manifests, "Service", module)
                    .map(service -> service.body().path("metadata")).orElse(Manifest.YAML.createObjectNode()))))) {
                problems.add(module + ": the overlay has ServiceMonitors but none scrapes " + module);
            }
        }
    }

    private void deployment(Manifest deployment, ServiceConfiguration configuration, List<Manifest> manifests,
                            List<String> problems) {
        String module = configuration.module();
        JsonNode containers = deployment.body().path("spec").path("template").path("spec").path("containers");
        if (containers.size() != 1) {
            problems.add(module + ": expected one container, found " + containers.size());
        }
        for (JsonNode container : containers) {
            Map<String, String> environment = environment(deployment, container, manifests, problems);
            environment.keySet().forEach(variable -> configuration.rejection(variable).ifPresent(
                    reason -> problems.add(module + ": " + reason + " (set by " + deployment.reference() + ")")));
            problems.addAll(DatabaseRoles.kubernetesProblems(configuration, environment, container, manifests));
            problems.addAll(KafkaCredentials.kubernetesProblems(configuration, environment, container));
            int port = -1;
            for (JsonNode containerPort : container.path("ports")) {
                if (containerPort.path("name").asText().equals("http")) {
                    port = containerPort.path("containerPort").asInt();
                }
            }
            String httpPort = configuration.effectiveValue("quarkus.http.port", environment).orElse("");
            if (!String.valueOf(port).equals(httpPort)) {
                problems.add(module + ": container port 'http' is " + port + " but the service listens on " + httpPort);
            }
            for (String probe : List.of("readinessProbe", "livenessProbe")) {
                String path = container.path(probe).path("httpGet").path("path").asText("");
                if (!path.startsWith("/q/health")) {
                    problems.add(module + ": " + probe + " must be an httpGet on /q/health, not '" + path + "'");
                }
            }
            for (String bound : List.of("requests", "limits")) {
                for (String resource : List.of("cpu", "memory")) {
                    if (container.path("resources").path(bound).path(resource).asText("").isEmpty()) {
                        problems.add(module + ": no resources." + bound + "." + resource);
                    }
                }
            }
        }
    }

    /** Variables by name: envFrom ConfigMaps first, then env (which wins, as in Kubernetes). */
    static Map<String, String> environment(Manifest deployment, JsonNode container, List<Manifest> manifests,
                                           List<String> problems) {
        Map<String, String> environment = new LinkedHashMap<>();
        for (JsonNode source : container.path("envFrom")) {
            String configMap = source.path("configMapRef").path("name").asText("");
            if (configMap.isEmpty()) {
                continue;
            }
            Optional<Manifest> found = find(manifests, "ConfigMap", configMap);
            if (found.isEmpty()) {
                problems.add(deployment.reference() + ": envFrom names ConfigMap " + configMap + ", which the overlay lacks");
                continue;
            }
            found.get().body().path("data").fields()
                    .forEachRemaining(entry -> environment.put(entry.getKey(), entry.getValue().asText()));
        }
        for (JsonNode variable : container.path("env")) {
            environment.put(variable.path("name").asText(), variable.has("value") ? variable.path("value").asText() : "<secret>");
        }
        return environment;
    }

    private void egress(String module, Manifest policy, List<String> problems) {
        JsonNode spec = policy.body().path("spec");
        Set<String> types = new TreeSet<>();
        spec.path("policyTypes").forEach(type -> types.add(type.asText()));
        if (!types.contains("Egress")) {
            problems.add(module + ": " + policy.reference() + " does not restrict egress (policyTypes lacks Egress)");
        }
        Set<String> allowed = new LinkedHashSet<>(List.of("dns"));
        ServiceConfiguration configuration = context.configuration(module);
        if (configuration.keys().stream().anyMatch(key -> key.name().equals("kafka.bootstrap.servers"))) {
            allowed.add("kafka");
        }
        if (configuration.keys().stream().anyMatch(key -> key.name().equals("quarkus.datasource.jdbc.url"))) {
            allowed.add("postgresql");
        }
        if (context.uses(module, "iceberg-support")) {
            allowed.addAll(List.of("iceberg-rest-catalog", "object-storage"));
        }
        allowed.addAll(ValidationContext.ENGINES.getOrDefault(module, List.of()));
        if (configuration.keys().stream().anyMatch(key -> key.name().startsWith("cryo.console.services."))) {
            allowed.add("cryo-services");
        }
        for (JsonNode rule : spec.path("egress")) {
            if (!rule.has("to")) {
                problems.add(module + ": " + policy.reference() + " has an egress rule to anywhere");
                continue;
            }
            for (JsonNode peer : rule.path("to")) {
                String kind = peerKind(peer, rule.path("ports"));
                if (!allowed.contains(kind)) {
                    problems.add(module + ": " + policy.reference() + " lets it reach " + kind + " " + peer
                            + "; it may reach only " + allowed);
                }
            }
        }
    }

    private static String peerKind(JsonNode peer, JsonNode ports) {
        JsonNode pods = peer.path("podSelector").path("matchLabels");
        if (pods.path("k8s-app").asText().equals("kube-dns")) {
            return "dns";
        }
        if (pods.has("strimzi.io/cluster")) {
            return "kafka";
        }
        if (pods.has("cnpg.io/cluster")) {
            return "postgresql";
        }
        String name = pods.path("app.kubernetes.io/name").asText("");
        if (!name.isEmpty()) {
            return name;
        }
        if (pods.path("app.kubernetes.io/part-of").asText().equals("cryo")) {
            return "cryo-services";
        }
        if (peer.has("ipBlock") && ports.size() > 0) {
            boolean httpsOnly = true;
            for (JsonNode port : ports) {
                httpsOnly &= port.path("port").asInt() == 443;
            }
            return httpsOnly ? "object-storage" : "anywhere";
        }
        return "anywhere";
    }

    // --- topics

    private void topics(List<Manifest> manifests, List<String> problems) {
        Map<String, Topics.Spec> expected = new LinkedHashMap<>();
        context.topics().forEach(spec -> expected.put(spec.name(), spec));
        for (String topic : context.architecture().topics()) {
            if (!expected.containsKey(topic)) {
                problems.add("topic " + topic + " of ARCHITECTURE.md is not in contracts' Topics.all()");
            }
        }
        List<Manifest> kafkaTopics = manifests.stream().filter(manifest -> manifest.kind().equals("KafkaTopic")).toList();
        boolean strimzi = !kafkaTopics.isEmpty() || manifests.stream().anyMatch(manifest -> manifest.kind().equals("Kafka"));
        Map<String, Manifest> declared = new HashMap<>();
        for (Manifest topic : kafkaTopics) {
            String name = topic.body().path("spec").path("topicName").asText(topic.name());
            declared.put(name, topic);
            Topics.Spec spec = expected.get(name);
            if (spec == null) {
                problems.add(topic.reference() + " names topic " + name + ", which is not in contracts' Topics.all()");
                continue;
            }
            int partitions = topic.body().path("spec").path("partitions").asInt(-1);
            if (partitions != spec.partitions()) {
                problems.add(topic.reference() + ": " + partitions + " partitions, Topics.all() says " + spec.partitions());
            }
            Map<String, String> configs = new HashMap<>();
            topic.body().path("spec").path("config").fields()
                    .forEachRemaining(entry -> configs.put(entry.getKey(), entry.getValue().asText()));
            if (!configs.equals(spec.configs())) {
                problems.add(topic.reference() + ": config " + configs + ", Topics.all() says " + spec.configs());
            }
        }
        if (strimzi) {
            for (String name : expected.keySet()) {
                if (!declared.containsKey(name)) {
                    problems.add("topic " + name + " is missing: no KafkaTopic declares it");
                }
            }
            for (Manifest kafka : manifests.stream().filter(manifest -> manifest.kind().equals("Kafka")).toList()) {
                long maxBytes = kafka.body().path("spec").path("kafka").path("config").path("message.max.bytes").asLong(0);
                if (maxBytes < Topics.MAX_RECORD_BYTES) {
                    problems.add(kafka.reference() + ": message.max.bytes " + maxBytes + " is below Topics.MAX_RECORD_BYTES "
                            + Topics.MAX_RECORD_BYTES);
                }
            }
        }
        for (Manifest scaler : manifests.stream().filter(manifest -> manifest.kind().equals("ScaledObject")).toList()) {
            for (JsonNode trigger : scaler.body().path("spec").path("triggers")) {
                String topic = trigger.path("metadata").path("topic").asText("");
                if (!topic.isEmpty() && !expected.containsKey(topic)) {
                    problems.add(scaler.reference() + " names topic " + topic + ", which is not in contracts' Topics.all()");
                }
            }
        }
    }

    // --- helpers

    static Optional<Manifest> find(List<Manifest> manifests, String kind, String name) {
        return manifests.stream().filter(manifest -> manifest.kind().equals(kind) && manifest.name().equals(name)).findFirst();
    }

    private static Map<String, String> labels(JsonNode metadata) {
        Map<String, String> labels = new HashMap<>();
        metadata.path("labels").fields().forEachRemaining(entry -> labels.put(entry.getKey(), entry.getValue().asText()));
        return labels;
    }

    private static boolean selects(JsonNode selector, Map<String, String> labels) {
        JsonNode matchLabels = selector.path("matchLabels");
        if (!matchLabels.isObject() || matchLabels.isEmpty()) {
            return false;
        }
        boolean[] all = {true};
        matchLabels.fields().forEachRemaining(entry -> all[0] &= entry.getValue().asText().equals(labels.get(entry.getKey())));
        return all[0];
    }
}
