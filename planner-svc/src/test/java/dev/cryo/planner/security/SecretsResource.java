package dev.cryo.planner.security;

import dev.cryo.testsupport.SecretLeaks;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.nio.file.Path;
import java.util.Map;

/**
 * Starts the planner with a recognisable database password, its only secret (it holds no catalog or
 * engine credentials); the local PostgreSQL trusts local connections, so the password is sent and
 * ignored. Writes the planner's whole log to a file the test reads afterwards.
 */
public class SecretsResource implements QuarkusTestResourceLifecycleManager {

    static final String PASSWORD = "s3cr3t-planner-db-pw-4dac83";
    static final Path LOG = Path.of("target", "secrets-test.log");

    @Override
    public Map<String, String> start() {
        return SecretLeaks.withLogFile(LOG, Map.of(
                "quarkus.datasource.password", PASSWORD));
    }

    @Override
    public void stop() {
    }
}
