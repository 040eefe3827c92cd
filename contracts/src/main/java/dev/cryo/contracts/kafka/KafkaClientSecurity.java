package dev.cryo.contracts.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The security settings of a Kafka client that is not a Quarkus service (topic administration, the demo's
 * tools, the bench): SASL/SCRAM-SHA-512 with {@code CRYO_KAFKA_USER} and {@code CRYO_KAFKA_PASSWORD}, over
 * {@code CRYO_KAFKA_SECURITY_PROTOCOL} (default {@code SASL_PLAINTEXT} when a user is given, else
 * {@code PLAINTEXT}: a broker without authentication). The services read the same variables through
 * platform's {@code kafka.*} configuration.
 */
public record KafkaClientSecurity(String protocol, String user, String password) {

    public static final String MECHANISM = "SCRAM-SHA-512";

    public KafkaClientSecurity {
        if (protocol.startsWith("SASL") && (user == null || user.isBlank() || password == null || password.isEmpty())) {
            throw new IllegalArgumentException("Kafka security protocol " + protocol
                    + " needs a user and a password: set CRYO_KAFKA_USER and CRYO_KAFKA_PASSWORD");
        }
    }

    /** From the environment variables above. */
    public static KafkaClientSecurity fromEnvironment() {
        return from(System::getenv);
    }

    /** {@link #local(Path, String)} of the administrator ({@value KafkaPrincipals#ADMIN}). */
    public static KafkaClientSecurity localAdministrator(Path runtime) {
        return local(runtime, KafkaPrincipals.ADMIN);
    }

    /**
     * The environment's settings when it names a user, else {@code principal} of the local broker whose
     * credentials {@code ./cryo infra up} keeps in {@code <runtime>/kafka/credentials.properties}, else none:
     * for tools that watch or feed a local Cryo (the bench's event tap and writers).
     */
    public static KafkaClientSecurity local(Path runtime, String principal) {
        KafkaClientSecurity environment = fromEnvironment();
        Path credentials = runtime.resolve("kafka").resolve("credentials.properties");
        if (environment.user() != null || !Files.isReadable(credentials)) {
            return environment;
        }
        try {
            return new KafkaClientSecurity("SASL_PLAINTEXT", principal, PrincipalAdmin.readCredentials(credentials).get(principal));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the local Kafka credentials " + credentials, e);
        }
    }

    static KafkaClientSecurity from(Function<String, String> environment) {
        String user = environment.apply("CRYO_KAFKA_USER");
        user = user == null || user.isBlank() ? null : user;
        String password = environment.apply("CRYO_KAFKA_PASSWORD");
        String protocol = environment.apply("CRYO_KAFKA_SECURITY_PROTOCOL");
        if (protocol == null || protocol.isBlank()) {
            protocol = user == null ? "PLAINTEXT" : "SASL_PLAINTEXT";
        }
        return new KafkaClientSecurity(protocol, user, password);
    }

    /** The client properties: {@code security.protocol}, and with SASL the mechanism and JAAS login. */
    public Map<String, Object> properties() {
        Map<String, Object> properties = new HashMap<>();
        properties.put("security.protocol", protocol);
        if (protocol.startsWith("SASL")) {
            properties.put("sasl.mechanism", MECHANISM);
            properties.put("sasl.jaas.config", jaas(user, password));
        }
        return properties;
    }

    /** The same properties added to {@code settings}, which are returned. */
    public <M extends Map<? super String, Object>> M applyTo(M settings) {
        settings.putAll(properties());
        return settings;
    }

    /** A SCRAM JAAS login line, its values quoted as JAAS reads them. */
    public static String jaas(String user, String password) {
        return "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + quote(user)
                + "\" password=\"" + quote(password) + "\";";
    }

    private static String quote(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    @Override
    public String toString() {
        return "KafkaClientSecurity[" + protocol + (user == null ? "" : ", user " + user) + "]";
    }
}
