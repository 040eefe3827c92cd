package dev.cryo.scorer.security;

import dev.cryo.testsupport.SecretLeaks;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.nio.file.Path;
import java.util.Map;

/**
 * Starts the scorer with a recognisable database password, its only secret (it holds no catalog or
 * engine credentials); the local PostgreSQL trusts local connections, so the password is sent and
 * ignored. Writes the scorer's whole log to a file the test reads afterwards.
 */
public class SecretsResource implements QuarkusTestResourceLifecycleManager {

    static final String PASSWORD = "s3cr3t-scorer-db-pw-a924f2";
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
