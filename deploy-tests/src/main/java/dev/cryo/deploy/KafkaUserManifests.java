package dev.cryo.deploy;

import dev.cryo.contracts.kafka.KafkaPrincipals;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Strimzi {@code KafkaUser} manifests generated from contracts' {@link KafkaPrincipals#all()}: one user per
 * principal, SCRAM-SHA-512, with exactly the ACLs that {@code TopicAdmin principals} gives the same
 * principal on any other broker (contracts' {@code PrincipalAdmin#bindings}): READ on each topic it reads,
 * WRITE on each topic it writes (literal names), READ on the consumer groups of its prefix. The output is
 * committed as {@code deploy/k8s/components/strimzi/users.yaml}; {@code GeneratedFilesTest} fails when it is
 * stale and rewrites it when asked to, and {@code KafkaUserManifestsTest} compares {@link #acls} with
 * {@code PrincipalAdmin#bindings} itself.
 */
public final class KafkaUserManifests {

    /** One ACL as Strimzi writes it: a resource, its pattern type, one operation, allowed from any host. */
    public record Acl(String resourceType, String name, String patternType, String operation) {
    }

    private KafkaUserManifests() {
    }

    /** The ACLs of one principal, in the order of the file: per resource, reads before writes, then its groups. */
    public static List<Acl> acls(KafkaPrincipals.Principal principal) {
        List<Acl> acls = new ArrayList<>();
        principal.reads().stream().sorted().forEach(topic -> acls.add(new Acl("topic", topic, "literal", "Read")));
        principal.writes().stream().sorted().forEach(topic -> acls.add(new Acl("topic", topic, "literal", "Write")));
        if (!principal.reads().isEmpty()) {
            acls.add(new Acl("group", principal.groupPrefix(), "prefix", "Read"));
        }
        return acls;
    }

    /** The whole file: header, then one KafkaUser per principal, in the order of {@link KafkaPrincipals#all()}. */
    public static String render() {
        return render(KafkaPrincipals.all().values());
    }

    static String render(Collection<KafkaPrincipals.Principal> principals) {
        StringBuilder yaml = new StringBuilder()
                .append("# GENERATED from contracts' KafkaPrincipals.all() by deploy-tests (dev.cryo.deploy.KafkaUserManifests).\n")
                .append("# Do not edit: change contracts/src/main/java/dev/cryo/contracts/kafka/KafkaPrincipals.java, then regenerate with\n")
                .append("#   ").append(TopicManifests.REGENERATE_COMMAND).append('\n')
                .append("# One SCRAM-SHA-512 user per service (and the commit reporter of your writers), with exactly the ACLs\n")
                .append("# TopicAdmin gives it elsewhere: Read on the topics it consumes, Write on those it produces, Read on\n")
                .append("# its consumer groups (prefix). The User Operator writes each password into the Secret of the\n")
                .append("# user's name (key \"password\"), from which the service's Deployment reads CRYO_KAFKA_PASSWORD.\n");
        for (KafkaPrincipals.Principal principal : principals) {
            TopicManifests.appendResource(yaml, "KafkaUser", principal.name())
                    .append("  authentication:\n")
                    .append("    type: scram-sha-512\n")
                    .append("  authorization:\n")
                    .append("    type: simple\n")
                    .append("    acls:\n");
            Map<List<String>, TreeSet<String>> byResource = new LinkedHashMap<>();
            for (Acl acl : acls(principal)) {
                byResource.computeIfAbsent(List.of(acl.resourceType(), acl.name(), acl.patternType()), key -> new TreeSet<>())
                        .add(acl.operation());
            }
            byResource.forEach((resource, operations) -> yaml
                    .append("      - resource:\n")
                    .append("          type: ").append(resource.get(0)).append('\n')
                    .append("          name: ").append(resource.get(1)).append('\n')
                    .append("          patternType: ").append(resource.get(2)).append('\n')
                    .append("        operations: [").append(String.join(", ", operations)).append("]\n")
                    .append("        host: \"*\"\n"));
        }
        return yaml.toString();
    }
}
