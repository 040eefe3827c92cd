package dev.cryo.audit.app;

import dev.cryo.audit.AuditErrorCode;
import dev.cryo.audit.persistence.AuditStore;
import dev.cryo.platform.config.ServiceConfig;
import dev.cryo.platform.error.CryoException;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Set;

/**
 * Prepares the empty schema a rebuild writes into: the same migrations as the live store, run with
 * the migration (owner) credentials, so the target has the same append-only rules and the service's
 * writer role writes into it exactly as into the live store.
 */
@ApplicationScoped
public class RebuildTargets {

    private static final Set<String> RESERVED = Set.of("public", "information_schema");

    private final Flyway liveFlyway;
    private final String liveSchema;

    RebuildTargets(Flyway liveFlyway, ServiceConfig service) {
        this.liveFlyway = liveFlyway;
        this.liveSchema = service.schema();
    }

    /**
     * Checks that a schema may be rebuilt into: a valid name, not the live store, and empty or absent.
     *
     * @throws CryoException {@link AuditErrorCode#INVALID_REPLAY} or {@link AuditErrorCode#REBUILD_TARGET_NOT_EMPTY}
     */
    public void check(String schema) {
        try {
            AuditStore.checkSchemaName(schema);
        } catch (IllegalArgumentException e) {
            throw new CryoException(AuditErrorCode.INVALID_REPLAY, "Cannot rebuild: " + e.getMessage());
        }
        if (schema.equals(liveSchema) || RESERVED.contains(schema) || schema.startsWith("pg_")) {
            throw new CryoException(AuditErrorCode.INVALID_REPLAY, "Cannot rebuild into schema " + schema
                    + ": name a new schema (not the live store " + liveSchema + ", not a system schema)");
        }
        try (Connection connection = liveFlyway.getConfiguration().getDataSource().getConnection();
             PreparedStatement tables = connection.prepareStatement(
                     "SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                             + "WHERE n.nspname = ? AND c.relkind IN ('r', 'p')")) {
            tables.setString(1, schema);
            try (ResultSet result = tables.executeQuery()) {
                result.next();
                if (result.getLong(1) > 0) {
                    throw new CryoException(AuditErrorCode.REBUILD_TARGET_NOT_EMPTY, "Cannot rebuild into schema " + schema
                            + ": it already holds " + result.getLong(1) + " table(s); name an empty or new schema");
                }
            }
        } catch (SQLException e) {
            throw new CryoException(AuditErrorCode.STORE_UNAVAILABLE, "Cannot check schema " + schema + ": "
                    + e.getMessage(), e);
        }
    }

    /** Creates the schema and its audit tables, functions, triggers and grants. */
    public void create(String schema) {
        try {
            Flyway target = Flyway.configure()
                    .configuration(liveFlyway.getConfiguration())
                    .schemas(schema)
                    .defaultSchema(schema)
                    .createSchemas(true)
                    .cleanDisabled(true)
                    .load();
            target.migrate();
            Log.infof("rebuild target schema %s created", schema);
        } catch (FlywayException e) {
            throw new CryoException(AuditErrorCode.STORE_FAILED, "Cannot create rebuild schema " + schema + ": "
                    + e.getMessage(), e);
        }
    }
}
