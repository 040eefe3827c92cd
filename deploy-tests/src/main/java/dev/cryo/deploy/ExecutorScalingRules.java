package dev.cryo.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryo.contracts.Topics;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The executors' autoscaler: one ScaledObject or HorizontalPodAutoscaler, whose maximum is what can
 * work (the admitted-jobs topic's partitions and the governor's slots bound it) and whose Kafka
 * trigger reads the executors' own group with a lag threshold of one executor's jobs.
 */
final class ExecutorScalingRules {

    static List<String> problems(ValidationContext context, List<Manifest> manifests) {
        List<String> problems = new ArrayList<>();
        String executor = "executor-svc";
        Optional<Manifest> executorDeployment = KubernetesRules.find(manifests, "Deployment", executor);
        Optional<Manifest> governorDeployment = KubernetesRules.find(manifests, "Deployment", "governor-svc");
        if (executorDeployment.isEmpty() || governorDeployment.isEmpty()) {
            return problems;
        }
        Predicate<Manifest> targetsExecutor = manifest -> manifest.body().path("spec").path("scaleTargetRef")
                .path("name").asText().equals(executor);
        List<Manifest> scalers = manifests.stream()
                .filter(manifest -> (manifest.kind().equals("ScaledObject") || manifest.kind().equals("HorizontalPodAutoscaler"))
                        && targetsExecutor.test(manifest)).toList();
        if (scalers.size() != 1) {
            problems.add(executor + ": expected one ScaledObject or HorizontalPodAutoscaler, found "
                    + scalers.stream().map(Manifest::reference).toList());
            return problems;
        }
        List<String> ignored = new ArrayList<>();
        ServiceConfiguration executorConfiguration = context.configuration(executor);
        ServiceConfiguration governorConfiguration = context.configuration("governor-svc");
        Map<String, String> executorEnvironment = KubernetesRules.environment(executorDeployment.get(),
                executorDeployment.get().body().path("spec").path("template").path("spec").path("containers").path(0),
                manifests, ignored);
        Map<String, String> governorEnvironment = KubernetesRules.environment(governorDeployment.get(),
                governorDeployment.get().body().path("spec").path("template").path("spec").path("containers").path(0),
                manifests, ignored);
        int concurrentJobs = Integer.parseInt(executorConfiguration.effectiveValue("cryo.executor.concurrent-jobs",
                executorEnvironment).orElseThrow());
        int slots = 0;
        for (String engine : List.of("native", "trino", "spark")) {
            slots += Integer.parseInt(governorConfiguration.effectiveValue("cryo.governor.slots." + engine,
                    governorEnvironment).orElseThrow());
        }
        int partitions = context.topics().stream().filter(spec -> spec.name().equals(Topics.JOBS_ADMITTED))
                .findFirst().orElseThrow().partitions();
        int expectedMaximum = Math.min(partitions, (slots + concurrentJobs - 1) / concurrentJobs);
        Manifest scaler = scalers.get(0);
        JsonNode spec = scaler.body().path("spec");
        int maximum = spec.path(scaler.kind().equals("ScaledObject") ? "maxReplicaCount" : "maxReplicas").asInt(-1);
        if (maximum != expectedMaximum) {
            problems.add(scaler.reference() + ": maximum " + maximum + " executors, but min(" + partitions
                    + " partitions of " + Topics.JOBS_ADMITTED + ", ceil(" + slots + " governor slots / " + concurrentJobs
                    + " jobs per executor)) = " + expectedMaximum + " can work");
        }
        if (scaler.kind().equals("ScaledObject")) {
            String group = "cryo-" + executorConfiguration.effectiveValue("cryo.service.name", executorEnvironment).orElseThrow();
            problems.addAll(triggerProblems(scaler, spec, group, concurrentJobs));
        }
        return problems;
    }

    /** A ScaledObject's Kafka triggers read the admitted-jobs topic, as the executors' group, one executor's jobs per replica. */
    private static List<String> triggerProblems(Manifest scaler, JsonNode spec, String group, int concurrentJobs) {
        List<String> problems = new ArrayList<>();
        for (JsonNode trigger : spec.path("triggers")) {
            JsonNode metadata = trigger.path("metadata");
            if (!trigger.path("type").asText().equals("kafka")) {
                continue;
            }
            if (!metadata.path("topic").asText().equals(Topics.JOBS_ADMITTED)) {
                problems.add(scaler.reference() + ": its kafka trigger must read " + Topics.JOBS_ADMITTED);
            }
            if (!metadata.path("consumerGroup").asText().equals(group)) {
                problems.add(scaler.reference() + ": its kafka trigger must read the executors' group " + group
                        + ", not " + metadata.path("consumerGroup").asText());
            }
            if (!metadata.path("lagThreshold").asText().equals(String.valueOf(concurrentJobs))) {
                problems.add(scaler.reference() + ": lagThreshold should be the jobs one executor runs, " + concurrentJobs);
            }
        }
        return problems;
    }

    private ExecutorScalingRules() {
    }
}
