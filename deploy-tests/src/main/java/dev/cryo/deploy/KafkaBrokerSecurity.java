package dev.cryo.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryo.contracts.kafka.KafkaPrincipals;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The broker side of Kafka authentication, in Compose and Strimzi alike: every listener another container
 * or pod can reach requires SASL/SCRAM-SHA-512, ACLs are enforced (nothing is allowed without one), the
 * super user is {@value KafkaPrincipals#ADMIN} and no service, and the principals and their ACLs are
 * exactly contracts' {@link KafkaPrincipals#all()} (Compose: the topic job provisions every one of them;
 * Strimzi: one KafkaUser each, whose ACLs are {@link KafkaUserManifests#acls}).
 */
final class KafkaBrokerSecurity {

    static final String AUTHORIZER = "org.apache.kafka.metadata.authorizer.StandardAuthorizer";
    static final String MECHANISM = "SCRAM-SHA-512";
    private static final Set<String> LOOPBACK = Set.of("127.0.0.1", "localhost", "[::1]");

    // --- Compose

    /** The broker (service {@code kafka}, configured by the Apache image's KAFKA_* variables). */
    static List<String> composeBrokerProblems(Map<String, String> environment) {
        List<String> problems = new ArrayList<>();
        Map<String, String> protocols = new LinkedHashMap<>();
        for (String entry : environment.getOrDefault("KAFKA_LISTENER_SECURITY_PROTOCOL_MAP", "").split(",")) {
            String[] pair = entry.trim().split(":", 2);
            if (pair.length == 2) {
                protocols.put(pair[0].trim(), pair[1].trim());
            }
        }
        boolean sasl = false;
        for (String listener : environment.getOrDefault("KAFKA_LISTENERS", "").split(",")) {
            int scheme = listener.indexOf("://");
            if (scheme < 0) {
                continue;
            }
            String name = listener.substring(0, scheme).trim();
            String address = listener.substring(scheme + 3);
            String host = address.contains(":") ? address.substring(0, address.lastIndexOf(':')) : address;
            String protocol = protocols.getOrDefault(name, name);
            if (protocol.startsWith("SASL_")) {
                sasl = true;
            } else if (!LOOPBACK.contains(host)) {
                problems.add("kafka: the listener " + name + " (" + protocol + "://" + address + ") lets other containers in"
                        + " without authentication; make it SASL_PLAINTEXT or bind it to 127.0.0.1");
            }
        }
        if (!sasl) {
            problems.add("kafka: no listener requires SASL (KAFKA_LISTENERS, KAFKA_LISTENER_SECURITY_PROTOCOL_MAP)");
        }
        if (!List.of(environment.getOrDefault("KAFKA_SASL_ENABLED_MECHANISMS", "").split(",")).contains(MECHANISM)) {
            problems.add("kafka: KAFKA_SASL_ENABLED_MECHANISMS must contain " + MECHANISM);
        }
        problems.addAll(authorization("kafka", environment.get("KAFKA_AUTHORIZER_CLASS_NAME"),
                environment.get("KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND"), superUsers(environment.getOrDefault("KAFKA_SUPER_USERS", ""))));
        return problems;
    }

    /** The job that runs TopicAdmin: as the super user, and it provisions every principal of contracts. */
    static List<String> composeTopicJobProblems(String service, JsonNode entrypoint, Map<String, String> environment) {
        List<String> problems = new ArrayList<>(KafkaCredentials.composeProblems(service, environment, KafkaPrincipals.ADMIN,
                java.util.Optional.empty()));
        if (!KafkaPrincipals.ADMIN.equals(environment.get(KafkaCredentials.USER))) {
            problems.add(service + ": TopicAdmin must log in as " + KafkaPrincipals.ADMIN + " (" + KafkaCredentials.USER + ")");
        }
        if (!entrypoint.toString().contains("TopicAdmin principals")) {
            problems.add(service + ": must run TopicAdmin principals (credentials and ACLs of contracts' KafkaPrincipals)");
        }
        for (String principal : KafkaPrincipals.all().keySet()) {
            String variable = KafkaCredentials.composeVariable(principal);
            if (!KafkaCredentials.placeholder(environment.get(variable)).orElse("").equals(variable)) {
                problems.add(service + ": sets no " + variable + ": ${" + variable + ":?…} (the password of " + principal + ")");
            }
        }
        return problems;
    }

    // --- Strimzi

    /** The Kafka clusters and their KafkaUsers, when the overlay has any. */
    static List<String> strimziProblems(List<Manifest> manifests) {
        List<String> problems = new ArrayList<>();
        for (Manifest kafka : manifests.stream().filter(manifest -> manifest.kind().equals("Kafka")).toList()) {
            JsonNode spec = kafka.body().path("spec").path("kafka");
            for (JsonNode listener : spec.path("listeners")) {
                if (!listener.path("authentication").path("type").asText("").equals("scram-sha-512")) {
                    problems.add(kafka.reference() + ": the listener " + listener.path("name").asText() + " (port "
                            + listener.path("port").asText() + ") does not require authentication: scram-sha-512");
                }
            }
            Set<String> superUsers = new TreeSet<>();
            spec.path("authorization").path("superUsers").forEach(user -> superUsers.add(user.asText()));
            String type = spec.path("authorization").path("type").asText("");
            problems.addAll(authorization(kafka.reference(), type.equals("simple") ? AUTHORIZER : type,
                    spec.path("config").path("allow.everyone.if.no.acl.found").asText(null), superUsers));
            if (kafka.body().path("spec").path("entityOperator").path("userOperator").isMissingNode()) {
                problems.add(kafka.reference() + ": no entityOperator.userOperator, so no KafkaUser gets its credentials");
            }
            users(kafka.name(), manifests, problems);
        }
        return problems;
    }

    private static void users(String cluster, List<Manifest> manifests, List<String> problems) {
        Map<String, KafkaPrincipals.Principal> expected = KafkaPrincipals.all();
        Set<String> declared = new HashSet<>();
        for (Manifest user : manifests.stream().filter(manifest -> manifest.kind().equals("KafkaUser")
                && manifest.body().path("metadata").path("labels").path("strimzi.io/cluster").asText().equals(cluster)).toList()) {
            declared.add(user.name());
            JsonNode spec = user.body().path("spec");
            if (!spec.path("authentication").path("type").asText("").equals("scram-sha-512")) {
                problems.add(user.reference() + ": authentication must be scram-sha-512");
            }
            Set<KafkaUserManifests.Acl> acls = new HashSet<>();
            for (JsonNode acl : spec.path("authorization").path("acls")) {
                JsonNode resource = acl.path("resource");
                if (!acl.path("type").asText("allow").equals("allow") || !acl.path("host").asText("*").equals("*")) {
                    problems.add(user.reference() + ": an ACL on " + resource.path("name").asText()
                            + " is not an allow from any host");
                }
                List<String> operations = new ArrayList<>();
                acl.path("operations").forEach(operation -> operations.add(operation.asText()));
                if (acl.has("operation")) {
                    operations.add(acl.path("operation").asText());
                }
                operations.forEach(operation -> acls.add(new KafkaUserManifests.Acl(resource.path("type").asText(),
                        resource.path("name").asText(), resource.path("patternType").asText("literal"), operation)));
            }
            KafkaPrincipals.Principal principal = expected.get(user.name());
            if (principal == null && !user.name().equals(KafkaPrincipals.ADMIN)) {
                problems.add(user.reference() + " is no principal of contracts' KafkaPrincipals.all()");
            } else if (principal != null && !acls.equals(Set.copyOf(KafkaUserManifests.acls(principal)))) {
                Set<KafkaUserManifests.Acl> extra = new TreeSet<>(java.util.Comparator.comparing(Object::toString));
                extra.addAll(acls);
                KafkaUserManifests.acls(principal).forEach(extra::remove);
                Set<KafkaUserManifests.Acl> missing = new TreeSet<>(java.util.Comparator.comparing(Object::toString));
                missing.addAll(KafkaUserManifests.acls(principal));
                missing.removeAll(acls);
                problems.add(user.reference() + ": its ACLs are not those of KafkaPrincipals.all()"
                        + (extra.isEmpty() ? "" : "; not allowed: " + extra) + (missing.isEmpty() ? "" : "; missing: " + missing));
            }
        }
        for (String principal : expected.keySet()) {
            if (!declared.contains(principal)) {
                problems.add("principal " + principal + " is missing: no KafkaUser of the cluster " + cluster + " declares it");
            }
        }
    }

    // --- both

    private static List<String> authorization(String where, String authorizer, String allowEveryone, Set<String> superUsers) {
        List<String> problems = new ArrayList<>();
        if (!AUTHORIZER.equals(authorizer)) {
            problems.add(where + ": ACLs are not enforced (authorizer " + authorizer + "; it must be " + AUTHORIZER
                    + ", Strimzi's authorization type simple)");
        }
        if ("true".equalsIgnoreCase(allowEveryone)) {
            problems.add(where + ": allow.everyone.if.no.acl.found is true, so a topic without ACLs is open to everyone");
        }
        if (superUsers.stream().noneMatch(user -> user.equals(KafkaPrincipals.ADMIN))) {
            problems.add(where + ": the super users " + superUsers + " do not include " + KafkaPrincipals.ADMIN);
        }
        superUsers.stream().filter(user -> KafkaPrincipals.all().containsKey(user)).forEach(user ->
                problems.add(where + ": " + user + " is a super user; a service's principal has only its ACLs"));
        return problems;
    }

    /** {@code User:a;User:b} as principal names. */
    private static Set<String> superUsers(String value) {
        Set<String> users = new TreeSet<>();
        for (String user : value.split(";")) {
            if (!user.isBlank()) {
                users.add(user.trim().startsWith("User:") ? user.trim().substring("User:".length()) : user.trim());
            }
        }
        return users;
    }

    private KafkaBrokerSecurity() {
    }
}
