package dev.cryo.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cryo.contracts.kafka.KafkaPrincipals;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every Kafka client has credentials of its own, in Compose and Kubernetes alike: a service that uses Kafka
 * logs in over SASL as its principal {@code cryo-<service>} (contracts' {@link KafkaPrincipals}) with a
 * password that comes from a secret (Compose: {@code ${CRYO_<SERVICE>_KAFKA_PASSWORD}} from {@code .env};
 * Kubernetes: the Secret of its KafkaUser), never a literal, never the super user {@value KafkaPrincipals#ADMIN}
 * and never another principal, whose ACLs would let it write topics that are not its own. The broker side
 * is {@link KafkaBrokerSecurity}.
 */
final class KafkaCredentials {

    static final String USER = "CRYO_KAFKA_USER";
    static final String PASSWORD = "CRYO_KAFKA_PASSWORD";
    static final String PROTOCOL = "CRYO_KAFKA_SECURITY_PROTOCOL";
    /** A Compose variable reference: {@code ${NAME}}, {@code ${NAME:?message}}, {@code ${NAME:-default}}. */
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)(?:[:?\\-+][^}]*)?}");
    private static final Pattern PRINCIPAL_VARIABLE = Pattern.compile("CRYO_([A-Z0-9_]+)_KAFKA_PASSWORD");

    /** Whether the service opens Kafka at all (the console does not). */
    static boolean usesKafka(ServiceConfiguration configuration) {
        return configuration.keys().stream().anyMatch(key -> key.name().equals("kafka.bootstrap.servers"));
    }

    /** The principal a service logs in as: {@code cryo-<cryo.service.name>}. */
    static String principalOf(ServiceConfiguration configuration, Map<String, String> environment) {
        return KafkaPrincipals.of(configuration.effectiveValue("cryo.service.name", environment).orElse(configuration.module()));
    }

    /** The {@code .env} variable that holds a principal's password in Compose: {@code CRYO_<NAME>_KAFKA_PASSWORD}. */
    static String composeVariable(String principal) {
        return "CRYO_" + principal.substring("cryo-".length()).toUpperCase(Locale.ROOT).replace('-', '_') + "_KAFKA_PASSWORD";
    }

    /** Compose: a Cryo service, or any container with KAFKA_BOOTSTRAP_SERVERS, logging in as {@code principal}. */
    static List<String> composeProblems(String service, Map<String, String> environment, String principal,
                                        Optional<ServiceConfiguration> configuration) {
        List<String> problems = new ArrayList<>();
        String password = environment.get(PASSWORD);
        String wanted = composeVariable(principal);
        if (password == null) {
            problems.add(service + ": sets no " + PASSWORD + " (it must be ${" + wanted + ":?…} from .env)");
        } else {
            Matcher placeholder = PLACEHOLDER.matcher(password.trim());
            if (!placeholder.matches()) {
                problems.add(service + ": " + PASSWORD + " is a literal; it must be ${" + wanted + ":?…} from .env");
            } else if (!placeholder.group(1).equals(wanted)) {
                problems.add(service + ": " + PASSWORD + " is ${" + placeholder.group(1) + "}" + owner(placeholder.group(1))
                        + " (it must be ${" + wanted + "})");
            }
        }
        problems.addAll(loginProblems(service, environment, principal, configuration));
        return problems;
    }

    /**
     * Kubernetes: {@code CRYO_KAFKA_PASSWORD} comes from the key {@code password} of the Secret that Strimzi's
     * User Operator writes for the service's KafkaUser (named like the principal), and no variable comes from
     * another KafkaUser's Secret.
     */
    static List<String> kubernetesProblems(ServiceConfiguration configuration, Map<String, String> environment,
                                           JsonNode container) {
        List<String> problems = new ArrayList<>();
        if (!usesKafka(configuration)) {
            return problems;
        }
        String module = configuration.module();
        String principal = principalOf(configuration, environment);
        Optional<JsonNode> password = variable(container, PASSWORD);
        if (password.isEmpty()) {
            problems.add(module + ": sets no " + PASSWORD + (environment.containsKey(PASSWORD) ? " from a Secret" : "")
                    + " (it must come from the Secret " + principal + ", key password)");
        } else {
            JsonNode reference = password.get().path("valueFrom").path("secretKeyRef");
            String secret = reference.path("name").asText("");
            if (secret.isEmpty()) {
                problems.add(module + ": " + PASSWORD + " is not read from a Secret (it must come from the Secret "
                        + principal + ", key password)");
            } else if (!secret.equals(principal) || !reference.path("key").asText("").equals("password")) {
                problems.add(module + ": " + PASSWORD + " must come from the Secret " + principal + ", key password, not "
                        + secret + ", key " + reference.path("key").asText(""));
            }
        }
        for (JsonNode entry : container.path("env")) {
            String secret = entry.path("valueFrom").path("secretKeyRef").path("name").asText("");
            if (!secret.equals(principal) && (secret.equals(KafkaPrincipals.ADMIN) || KafkaPrincipals.all().containsKey(secret))) {
                problems.add(module + ": " + entry.path("name").asText() + " comes from " + secret + ", the Secret of "
                        + (secret.equals(KafkaPrincipals.ADMIN) ? "the super user's KafkaUser" : "another service's KafkaUser"));
            }
        }
        problems.addAll(loginProblems(module, environment, principal, Optional.of(configuration)));
        return problems;
    }

    /** The user and the protocol: the principal's own name, over SASL. */
    private static List<String> loginProblems(String service, Map<String, String> environment, String principal,
                                              Optional<ServiceConfiguration> configuration) {
        List<String> problems = new ArrayList<>();
        String user = environment.get(USER);
        if (user != null && !user.equals(principal)) {
            problems.add(service + ": " + USER + " is " + user
                    + (user.equals(KafkaPrincipals.ADMIN) ? ", the broker's super user" : "")
                    + " (it must be " + principal + ")");
        }
        String protocol = configuration.flatMap(c -> c.effectiveValue("kafka.security.protocol", environment))
                .orElse(environment.getOrDefault(PROTOCOL, "SASL_PLAINTEXT"));
        if (!protocol.startsWith("SASL_")) {
            problems.add(service + ": its Kafka security protocol is " + protocol
                    + "; the broker requires SASL (SASL_PLAINTEXT or SASL_SSL)");
        }
        for (String jaas : List.of("KAFKA_SASL_JAAS_CONFIG", "kafka.sasl.jaas.config")) {
            if (environment.containsKey(jaas)) {
                problems.add(service + ": sets " + jaas + " itself; it must log in with " + USER + " and " + PASSWORD);
            }
        }
        return problems;
    }

    private static String owner(String variable) {
        Matcher matcher = PRINCIPAL_VARIABLE.matcher(variable);
        return matcher.matches() ? ", the password of cryo-" + matcher.group(1).toLowerCase(Locale.ROOT).replace('_', '-') : "";
    }

    /** The variable a Compose value refers to, if it is a {@code ${…}} reference. */
    static Optional<String> placeholder(String value) {
        Matcher matcher = PLACEHOLDER.matcher(value == null ? "" : value.trim());
        return matcher.matches() ? Optional.of(matcher.group(1)) : Optional.empty();
    }

    private static Optional<JsonNode> variable(JsonNode container, String name) {
        for (JsonNode entry : container.path("env")) {
            if (entry.path("name").asText().equals(name)) {
                return Optional.of(entry);
            }
        }
        return Optional.empty();
    }

    private KafkaCredentials() {
    }
}
