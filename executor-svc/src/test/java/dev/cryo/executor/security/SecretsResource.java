package dev.cryo.executor.security;

import dev.cryo.executor.WarehouseResource;
import dev.cryo.testsupport.SecretLeaks;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.nio.file.Path;
import java.util.Map;

/**
 * Starts the executor with recognisable secrets: the test catalog's JDBC password and S3 secret key
 * (the local PostgreSQL trusts local connections, so the password is sent and ignored) and a Trino
 * password, with Trino on a closed port so that every Trino step fails with the password in hand; and
 * writes the executor's whole log to a file the test reads afterwards.
 */
public class SecretsResource implements QuarkusTestResourceLifecycleManager {

    static final String CATALOG_PASSWORD = "s3cr3t-exec-catalog-pw-51c0";
    static final String S3_SECRET = "s3cr3t-exec-s3-key-8d2e7f";
    static final String TRINO_PASSWORD = "s3cr3t-exec-trino-pw-a93b";
    static final Path LOG = Path.of("target", "secrets-test.log");

    @Override
    public Map<String, String> start() {
        return SecretLeaks.withLogFile(LOG, Map.of(
                "cryo.catalogs." + WarehouseResource.CATALOG + ".jdbc.password", CATALOG_PASSWORD,
                "cryo.catalogs." + WarehouseResource.CATALOG + ".s3.secret-access-key", S3_SECRET,
                "cryo.executor.trino.jdbc-url", "jdbc:trino://127.0.0.1:9",
                "cryo.executor.trino.password", TRINO_PASSWORD));
    }

    @Override
    public void stop() {
    }
}
