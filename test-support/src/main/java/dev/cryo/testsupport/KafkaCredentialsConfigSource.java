package dev.cryo.testsupport;

import org.eclipse.microprofile.config.spi.ConfigSource;

import java.util.Map;
import java.util.Set;

/**
 * Gives Quarkus tests the test broker's administrator password ({@code CRYO_KAFKA_ADMIN_PASSWORD}, which
 * platform's {@code %test} profile logs in with) from the local runtime's credentials file, so that a
 * module's tests run with {@code ./mvnw} alone as with {@code ./cryo test}. The environment wins (ordinal 50).
 */
public final class KafkaCredentialsConfigSource implements ConfigSource {

    static final String PASSWORD = "CRYO_KAFKA_ADMIN_PASSWORD";

    @Override
    public Set<String> getPropertyNames() {
        return Set.of(PASSWORD);
    }

    @Override
    public Map<String, String> getProperties() {
        String password = getValue(PASSWORD);
        return password == null ? Map.of() : Map.of(PASSWORD, password);
    }

    @Override
    public String getValue(String name) {
        if (!PASSWORD.equals(name)) {
            return null;
        }
        String password = Infrastructure.kafkaPassword(Infrastructure.kafkaAdminUser());
        return password.isEmpty() ? null : password;
    }

    @Override
    public String getName() {
        return "cryo-test-kafka-credentials";
    }

    @Override
    public int getOrdinal() {
        return 50;
    }
}
