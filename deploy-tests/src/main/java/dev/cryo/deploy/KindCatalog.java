package dev.cryo.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.openshift.api.model.monitoring.v1.PodMonitor;
import io.fabric8.openshift.api.model.monitoring.v1.ServiceMonitor;
import io.strimzi.api.kafka.model.kafka.Kafka;
import io.strimzi.api.kafka.model.nodepool.KafkaNodePool;
import io.strimzi.api.kafka.model.topic.KafkaTopic;
import io.strimzi.api.kafka.model.user.KafkaUser;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The kinds that Cryo's manifests may hold, and how each is checked:
 *
 * <ul>
 *   <li>Kubernetes kinds, Strimzi's {@code Kafka}, {@code KafkaNodePool}, {@code KafkaTopic}, {@code KafkaUser} and the
 *       Prometheus Operator's monitors are read into their typed models (fabric8, Strimzi's api jar);
 *       a field the model does not know lands in an {@code additionalProperties} map, which is an error here.</li>
 *   <li>KEDA's {@code ScaledObject} and {@code TriggerAuthentication} and CloudNativePG's {@code Cluster} have no Java model on Maven Central:
 *       they are validated against the OpenAPI schema of their upstream CRDs, vendored under
 *       {@code src/main/resources/crds/} (see the NOTICE there).</li>
 * </ul>
 */
public final class KindCatalog {

    private static final Map<String, Class<?>> TYPED = Map.ofEntries(
            Map.entry("v1/ServiceAccount", ServiceAccount.class),
            Map.entry("v1/ConfigMap", ConfigMap.class),
            Map.entry("v1/Secret", Secret.class),
            Map.entry("v1/Service", Service.class),
            Map.entry("apps/v1/Deployment", Deployment.class),
            Map.entry("policy/v1/PodDisruptionBudget", PodDisruptionBudget.class),
            Map.entry("networking.k8s.io/v1/NetworkPolicy", NetworkPolicy.class),
            Map.entry("autoscaling/v2/HorizontalPodAutoscaler", HorizontalPodAutoscaler.class),
            Map.entry("monitoring.coreos.com/v1/ServiceMonitor", ServiceMonitor.class),
            Map.entry("monitoring.coreos.com/v1/PodMonitor", PodMonitor.class),
            Map.entry("kafka.strimzi.io/v1beta2/Kafka", Kafka.class),
            Map.entry("kafka.strimzi.io/v1beta2/KafkaNodePool", KafkaNodePool.class),
            Map.entry("kafka.strimzi.io/v1beta2/KafkaTopic", KafkaTopic.class),
            Map.entry("kafka.strimzi.io/v1beta2/KafkaUser", KafkaUser.class));

    private static final Map<String, String> CUSTOM_RESOURCE_DEFINITIONS = Map.of(
            "keda.sh/v1alpha1/ScaledObject", "crds/keda.sh_scaledobjects.yaml",
            "keda.sh/v1alpha1/TriggerAuthentication", "crds/keda.sh_triggerauthentications.yaml",
            "postgresql.cnpg.io/v1/Cluster", "crds/postgresql.cnpg.io_clusters.yaml");

    private final KubernetesSerialization serialization = new KubernetesSerialization();
    private final Map<String, StructuralSchema> schemas = new java.util.HashMap<>();

    /** Every {@code apiVersion/kind} this catalog checks. */
    public Set<String> kinds() {
        Set<String> kinds = new java.util.TreeSet<>(TYPED.keySet());
        kinds.addAll(CUSTOM_RESOURCE_DEFINITIONS.keySet());
        return kinds;
    }

    /** The problems of one manifest as the kind it claims; empty when it is one. */
    public List<String> problems(Manifest manifest) {
        String kind = manifest.apiVersion() + "/" + manifest.kind();
        List<String> problems = new ArrayList<>();
        if (manifest.name().isEmpty()) {
            problems.add(manifest.kind() + " without metadata.name");
        }
        Class<?> typed = TYPED.get(kind);
        if (typed != null) {
            Object object;
            try {
                object = serialization.convertValue(manifest.body(), typed);
            } catch (RuntimeException e) {
                problems.add(manifest.reference() + " does not parse as " + kind + ": " + rootMessage(e));
                return problems;
            }
            unknownFields(object, "", new IdentityHashMap<>(), manifest.reference(), problems);
            return problems;
        }
        String definition = CUSTOM_RESOURCE_DEFINITIONS.get(kind);
        if (definition != null) {
            StructuralSchema schema = schemas.computeIfAbsent(kind, key -> load(definition, manifest.apiVersion()));
            schema.problems(manifest.body()).forEach(problem -> problems.add(manifest.reference() + ": " + problem));
            return problems;
        }
        problems.add(manifest.reference() + " has apiVersion/kind " + kind + ", which is none of the kinds validated here "
                + kinds() + "; add its model or CRD schema to KindCatalog");
        return problems;
    }

    private static StructuralSchema load(String resource, String apiVersion) {
        String version = apiVersion.substring(apiVersion.indexOf('/') + 1);
        try (InputStream in = KindCatalog.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("Cannot find the CRD " + resource + " on the classpath");
            }
            JsonNode definition = Manifest.YAML.readTree(in);
            return StructuralSchema.of(definition, version);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the CRD " + resource, e);
        }
    }

    /** Walks the typed object's getters; any non-empty additionalProperties is a field the kind does not have. */
    private static void unknownFields(Object object, String path, IdentityHashMap<Object, Boolean> seen,
                                      String reference, List<String> problems) {
        if (object == null || seen.put(object, Boolean.TRUE) != null) {
            return;
        }
        if (object instanceof Collection<?> collection) {
            int index = 0;
            for (Object element : collection) {
                unknownFields(element, path + "[" + index++ + "]", seen, reference, problems);
            }
            return;
        }
        if (object instanceof Map<?, ?> map) {
            map.forEach((key, value) -> unknownFields(value, path + "." + key, seen, reference, problems));
            return;
        }
        String packageName = object.getClass().getPackageName();
        if (!packageName.startsWith("io.fabric8.") && !packageName.startsWith("io.strimzi.")) {
            return;
        }
        for (Method getter : object.getClass().getMethods()) {
            if (getter.getParameterCount() != 0 || Modifier.isStatic(getter.getModifiers())
                    || !getter.getName().startsWith("get") || getter.getDeclaringClass() == Object.class) {
                continue;
            }
            Object value;
            try {
                value = getter.invoke(object);
            } catch (IllegalAccessException | InvocationTargetException e) {
                continue;
            }
            if (getter.getName().equals("getAdditionalProperties")) {
                if (value instanceof Map<?, ?> extra && !extra.isEmpty()) {
                    problems.add(reference + ": unknown field(s) " + extra.keySet() + " at "
                            + (path.isEmpty() ? "the top level" : path.substring(1)));
                }
                continue;
            }
            String property = Character.toLowerCase(getter.getName().charAt(3)) + getter.getName().substring(4);
            unknownFields(value, path + "." + property, seen, reference, problems);
        }
    }

    private static String rootMessage(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.toString() : root.getMessage();
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
