package dev.cryo.deploy;

import dev.cryo.contracts.Topics;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Strimzi {@code KafkaTopic} manifests generated from contracts' {@link Topics#all()}, so that the
 * cluster's topics never drift from the ones the services are built against. The output is
 * committed as {@code deploy/k8s/components/strimzi/topics.yaml}; {@code GeneratedFilesTest} fails
 * when it is stale and rewrites it when asked to.
 */
public final class TopicManifests {

    /** The command that regenerates the committed file; it is named in the file's header. */
    public static final String REGENERATE_COMMAND =
            "./mvnw -B -pl deploy-tests test -Dtest=GeneratedFilesTest -Dcryo.deploy.regenerate=true";

    /** The Strimzi cluster the topics belong to (the Kafka resource of the strimzi component). */
    public static final String CLUSTER = "cryo";

    /** Replicas of every topic on the production cluster; the dev overlay patches them to 1. */
    public static final int REPLICAS = 3;

    private TopicManifests() {
    }

    /** The whole file: header, then one KafkaTopic per topic, in the order of {@link Topics#all()}. */
    public static String render() {
        return render(Topics.all());
    }

    static String render(List<Topics.Spec> topics) {
        StringBuilder yaml = new StringBuilder()
                .append("# GENERATED from contracts' Topics.all() by deploy-tests (dev.cryo.deploy.TopicManifests).\n")
                .append("# Do not edit: change contracts/src/main/java/dev/cryo/contracts/Topics.java, then regenerate with\n")
                .append("#   ").append(REGENERATE_COMMAND).append('\n')
                .append("# Partitions bound each consumer group's parallelism; configs are the topic-level limits\n")
                .append("# (8 MiB records, retention). Only cryo.audit-anchors.v1 is compacted (verify needs each chain's\n")
                .append("# latest anchor); the audit log sees every event of the others.\n");
        for (Topics.Spec topic : topics) {
            appendResource(yaml, "KafkaTopic", topic.name())
                    .append("  topicName: ").append(topic.name()).append('\n')
                    .append("  partitions: ").append(topic.partitions()).append('\n')
                    .append("  replicas: ").append(REPLICAS).append('\n')
                    .append("  config:\n");
            for (Map.Entry<String, String> config : new TreeMap<>(topic.configs()).entrySet()) {
                yaml.append("    ").append(config.getKey()).append(": ").append(scalar(config.getValue())).append('\n');
            }
        }
        return yaml.toString();
    }

    /** The start of one Strimzi resource of this cluster, up to its {@code spec:} line. */
    static StringBuilder appendResource(StringBuilder yaml, String kind, String name) {
        return yaml.append("---\n")
                .append("apiVersion: kafka.strimzi.io/v1beta2\n")
                .append("kind: ").append(kind).append('\n')
                .append("metadata:\n")
                .append("  name: ").append(name).append('\n')
                .append("  labels:\n")
                .append("    strimzi.io/cluster: ").append(CLUSTER).append('\n')
                .append("spec:\n");
    }

    /** Numbers as YAML numbers (as Strimzi's examples write them), anything else as a quoted string. */
    private static String scalar(String value) {
        return value.matches("-?[0-9]+") ? value : "\"" + value.replace("\"", "\\\"") + "\"";
    }
}
