package dev.cryo.deploy;

import com.fasterxml.jackson.databind.JsonNode;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Least privilege in the database, for Compose and Kubernetes alike: a service with a datasource logs
 * in as its own role {@code cryo_<service>} and migrates as {@code cryo_<service>_owner}
 * (infra/postgres/service-roles.sql); never as a superuser, the database's owner or another
 * service's role, so no service holds the audit schema's owner.
 */
final class DatabaseRoles {

    static final String LOGIN = "CRYO_DB_USER";
    static final String OWNER = "CRYO_DB_OWNER";

    /** Whether the service opens the database at all (the console does not). */
    private static boolean usesDatabase(ServiceConfiguration configuration, Map<String, String> environment) {
        return configuration.effectiveValue("quarkus.datasource.db-kind", environment).isPresent();
    }

    private static String serviceName(ServiceConfiguration configuration, Map<String, String> environment) {
        return configuration.effectiveValue("cryo.service.name", environment).orElse(configuration.module());
    }

    static String loginRole(String service) {
        return "cryo_" + service;
    }

    static String ownerRole(String service) {
        return "cryo_" + service + "_owner";
    }

    /** Compose: the role names are written into the service's environment. */
    static List<String> composeProblems(ServiceConfiguration configuration, Map<String, String> environment, String superuser) {
        List<String> problems = new ArrayList<>();
        if (!usesDatabase(configuration, environment)) {
            return problems;
        }
        String module = configuration.module();
        String service = serviceName(configuration, environment);
        expect(module, LOGIN, environment.get(LOGIN), loginRole(service), superuser, problems);
        expect(module, OWNER, environment.get(OWNER), ownerRole(service), superuser, problems);
        return problems;
    }

    private static void expect(String module, String variable, String actual, String wanted, String superuser,
                               List<String> problems) {
        if (actual == null) {
            problems.add(module + ": sets no " + variable + " (it must be " + wanted + ")");
        } else if (actual.equals(superuser)) {
            problems.add(module + ": " + variable + " is the superuser " + superuser + " (it must be " + wanted + ")");
        } else if (!actual.equals(wanted)) {
            problems.add(module + ": " + variable + " is " + actual + " (it must be " + wanted + ")");
        }
    }

    /**
     * Kubernetes: the credentials come from Secrets named after the role ({@code cryo-db-<service>}
     * and {@code cryo-db-<service>-owner}), whose username, when the overlay renders them, is that
     * role; the database owner's Secret {@code cryo-db} is no service's.
     */
    static List<String> kubernetesProblems(ServiceConfiguration configuration, Map<String, String> environment,
                                           JsonNode container, List<Manifest> manifests) {
        List<String> problems = new ArrayList<>();
        if (!usesDatabase(configuration, environment)) {
            return problems;
        }
        String module = configuration.module();
        String service = serviceName(configuration, environment);
        String loginSecret = "cryo-db-" + service;
        String ownerSecret = "cryo-db-" + service + "-owner";
        Map<String, String> wanted = Map.of(LOGIN, loginSecret, "CRYO_DB_PASSWORD", loginSecret,
                OWNER, ownerSecret, "CRYO_DB_OWNER_PASSWORD", ownerSecret);
        for (Map.Entry<String, String> variable : wanted.entrySet()) {
            String secret = secretOf(container, variable.getKey()).orElse("");
            if (!secret.equals(variable.getValue())) {
                problems.add(module + ": " + variable.getKey() + " must come from the Secret " + variable.getValue()
                        + (secret.isEmpty() ? "" : ", not " + secret));
            }
        }
        for (JsonNode variable : container.path("env")) {
            String secret = variable.path("valueFrom").path("secretKeyRef").path("name").asText("");
            if (secret.equals("cryo-db")) {
                problems.add(module + ": " + variable.path("name").asText() + " comes from cryo-db, the database owner's Secret");
            }
        }
        username(manifests, loginSecret).filter(name -> !name.equals(loginRole(service))).ifPresent(name ->
                problems.add(module + ": the Secret " + loginSecret + " names " + name + " (it must be " + loginRole(service) + ")"));
        username(manifests, ownerSecret).filter(name -> !name.equals(ownerRole(service))).ifPresent(name ->
                problems.add(module + ": the Secret " + ownerSecret + " names " + name + " (it must be " + ownerRole(service) + ")"));
        KubernetesRules.find(manifests, "Cluster", "cryo-postgres").ifPresent(cluster -> {
            for (String role : List.of(loginRole(service), ownerRole(service))) {
                JsonNode managed = null;
                for (JsonNode candidate : cluster.body().path("spec").path("managed").path("roles")) {
                    if (candidate.path("name").asText().equals(role)) {
                        managed = candidate;
                    }
                }
                if (managed == null) {
                    problems.add(module + ": the Cluster cryo-postgres manages no role " + role);
                } else if (managed.path("superuser").asBoolean(false) || managed.path("createrole").asBoolean(false)
                        || managed.path("bypassrls").asBoolean(false)) {
                    problems.add(module + ": the role " + role + " may not be a superuser, create roles or bypass row security");
                }
            }
        });
        return problems;
    }

    private static Optional<String> secretOf(JsonNode container, String variable) {
        for (JsonNode entry : container.path("env")) {
            if (entry.path("name").asText().equals(variable)) {
                return Optional.of(entry.path("valueFrom").path("secretKeyRef").path("name").asText(""));
            }
        }
        return Optional.empty();
    }

    private static Optional<String> username(List<Manifest> manifests, String secret) {
        return KubernetesRules.find(manifests, "Secret", secret).flatMap(manifest -> {
            JsonNode data = manifest.body().path("data").path("username");
            if (!data.isMissingNode()) {
                return Optional.of(new String(Base64.getDecoder().decode(data.asText()), StandardCharsets.UTF_8));
            }
            JsonNode plain = manifest.body().path("stringData").path("username");
            return plain.isMissingNode() ? Optional.empty() : Optional.of(plain.asText());
        });
    }

    private DatabaseRoles() {
    }
}
