package dev.cryo.audit.security;

import dev.cryo.testsupport.SecretLeaks;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.nio.file.Path;
import java.util.Map;

/**
 * Starts the audit with recognisable database passwords, the audit writer's and the schema owner's
 * (Flyway's); the local PostgreSQL trusts local connections, so both are sent and ignored. Writes the
 * audit's whole log to a file the test reads afterwards.
 */
public class SecretsResource implements QuarkusTestResourceLifecycleManager {

    static final String WRITER_PASSWORD = "s3cr3t-audit-writer-pw-6e1f";
    static final String OWNER_PASSWORD = "s3cr3t-audit-owner-pw-0b94";
    static final Path LOG = Path.of("target", "secrets-test.log");

    @Override
    public Map<String, String> start() {
        return SecretLeaks.withLogFile(LOG, Map.of(
                "quarkus.datasource.password", WRITER_PASSWORD,
                "quarkus.flyway.password", OWNER_PASSWORD));
    }

    @Override
    public void stop() {
    }
}
