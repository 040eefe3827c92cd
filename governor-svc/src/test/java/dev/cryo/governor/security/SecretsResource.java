package dev.cryo.governor.security;

import dev.cryo.testsupport.SecretLeaks;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.nio.file.Path;
import java.util.Map;

/**
 * Starts the governor with a recognisable Trino password and Trino on a closed port (so every probe
 * fails with the password in hand), and writes its whole log to a file the test reads afterwards.
 */
public class SecretsResource implements QuarkusTestResourceLifecycleManager {

    static final String SECRET = "s3cr3t-trino-pw-7f3a9c";
    static final Path LOG = Path.of("target", "secrets-test.log");

    @Override
    public Map<String, String> start() {
        return SecretLeaks.withLogFile(LOG, Map.of(
                "cryo.governor.trino.jdbc-url", "jdbc:trino://127.0.0.1:9/lakehouse",
                "cryo.governor.trino.password", SECRET,
                "cryo.governor.slots.trino", "2"));
    }

    @Override
    public void stop() {
    }
}
