package dev.cryo.scanner.security;

import dev.cryo.scanner.app.TestCatalogResource;
import dev.cryo.testsupport.SecretLeaks;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.nio.file.Path;
import java.util.Map;

/**
 * Gives the test catalog a recognisable JDBC password and S3 secret key (the local PostgreSQL trusts
 * local connections, so the password is sent and ignored) and writes the scanner's whole log to a file.
 */
public class SecretsResource implements QuarkusTestResourceLifecycleManager {

    static final String PASSWORD = "s3cr3t-catalog-pw-4be1d2";
    static final String S3_SECRET = "s3cr3t-s3-key-9c77aa10";
    static final Path LOG = Path.of("target", "secrets-test.log");

    @Override
    public Map<String, String> start() {
        return SecretLeaks.withLogFile(LOG, Map.of(
                "cryo.catalogs." + TestCatalogResource.CATALOG + ".jdbc.password", PASSWORD,
                "cryo.catalogs." + TestCatalogResource.CATALOG + ".s3.secret-access-key", S3_SECRET));
    }

    @Override
    public void stop() {
    }
}
