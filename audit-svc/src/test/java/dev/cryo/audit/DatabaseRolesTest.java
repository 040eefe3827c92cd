package dev.cryo.audit;

import dev.cryo.testsupport.Infrastructure;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

/**
 * Least privilege on the real local PostgreSQL, with the roles {@code ./cryo infra up} provisions
 * (infra/postgres/service-roles.sql): no service's role can change or remove an audit row, switch
 * off the triggers that keep the log append-only, or move the chain; none is a superuser.
 */
@QuarkusTest
class DatabaseRolesTest {

    private static final List<String> SERVICES = List.of("scanner", "scorer", "planner", "governor", "executor", "audit");
    private static final String SCHEMA = Database.SCHEMA;

    @Test
    void everyServiceRoleIsRefusedEveryChangeToTheAuditTables() throws SQLException {
        List<String> roles = new ArrayList<>();
        for (String service : SERVICES) {
            roles.add("cryo_" + service);
            if (!service.equals("audit")) {
                roles.add("cryo_" + service + "_owner");
            }
        }
        long rowId = anyRowId();
        List<String> attempts = List.of(
                "UPDATE " + SCHEMA + ".audit_event SET detail = 'rewritten' WHERE id = " + rowId,
                "DELETE FROM " + SCHEMA + ".audit_event WHERE id = " + rowId,
                "TRUNCATE " + SCHEMA + ".audit_event",
                "ALTER TABLE " + SCHEMA + ".audit_event DISABLE TRIGGER audit_event_append_only",
                "ALTER TABLE " + SCHEMA + ".audit_event DISABLE TRIGGER ALL",
                "DROP TABLE " + SCHEMA + ".audit_event CASCADE",
                "ALTER TABLE " + SCHEMA + ".audit_event DETACH PARTITION " + SCHEMA + ".audit_event_"
                        + java.time.YearMonth.now(java.time.ZoneOffset.UTC).toString().replace('-', '_'),
                "DELETE FROM " + SCHEMA + ".audit_event_id",
                "UPDATE " + SCHEMA + ".audit_chain_head SET last_hash = repeat('f', 64)",
                "DROP FUNCTION " + SCHEMA + ".audit_chain_append() CASCADE",
                "CREATE OR REPLACE FUNCTION " + SCHEMA + ".audit_canonical(r ANYELEMENT) RETURNS TEXT LANGUAGE sql AS $$ SELECT 'x' $$",
                "SET session_replication_role = replica");
        for (String role : roles) {
            try (Connection connection = connectAs(role); Statement statement = connection.createStatement()) {
                for (String attempt : attempts) {
                    assertThatThrownBy(() -> statement.execute(attempt))
                            .as("%s: %s", role, attempt)
                            .isInstanceOf(SQLException.class)
                            .satisfies(e -> assertThat(((SQLException) e).getSQLState())
                                    .as("%s: %s refused for want of privilege, not by chance", role, attempt)
                                    .isEqualTo("42501"));
                }
            }
        }
        assertThat(Database.count("SELECT count(*) FROM " + SCHEMA + ".audit_event WHERE id = ? AND detail IS DISTINCT FROM 'rewritten'", rowId))
                .isEqualTo(1);
    }

    @Test
    void noServiceLogsInAsASuperuserOrAsTheOwnerOfTheAuditSchema() throws SQLException {
        try (Connection admin = Database.owner();
             PreparedStatement select = admin.prepareStatement("""
                     SELECT r.rolsuper, r.rolcreaterole, r.rolcreatedb, r.rolbypassrls, r.rolreplication,
                            pg_has_role(r.rolname, 'cryo_audit_owner', 'MEMBER')
                       FROM pg_roles r WHERE r.rolname = ?""")) {
            for (String service : SERVICES) {
                select.setString(1, "cryo_" + service);
                try (ResultSet result = select.executeQuery()) {
                    if (!result.next()) {
                        fail("Role cryo_" + service + " does not exist: provision the roles with ./cryo infra up");
                    }
                    for (int column = 1; column <= 6; column++) {
                        assertThat(result.getBoolean(column)).as("cryo_%s, column %d", service, column).isFalse();
                    }
                }
            }
            assertThat(Database.count("SELECT count(*) FROM pg_namespace WHERE nspname = ? AND pg_get_userbyid(nspowner) = 'cryo_audit_owner'",
                    SCHEMA)).isEqualTo(1);
        }
        try (Connection service = Database.writer(); Statement statement = service.createStatement();
             ResultSet result = statement.executeQuery("SELECT current_user")) {
            result.next();
            assertThat(result.getString(1)).isEqualTo("cryo_audit");
        }
    }

    /**
     * The trigger continues the chain from the rows and the saved head, which only it writes: a
     * chain position set by the writer's session (as the V1 trigger read one) changes nothing.
     */
    @Test
    void theWriterCannotSetWhereTheChainContinues() throws SQLException {
        anyRowId();
        try (Connection writer = Database.writer()) {
            writer.setAutoCommit(false);
            try (Statement statement = writer.createStatement()) {
                ResultSet head = statement.executeQuery("SELECT last_id, last_hash FROM " + SCHEMA + ".audit_chain_lock()");
                head.next();
                long lastId = head.getLong(1);
                String lastHash = head.getString(2);
                statement.execute("SELECT set_config('cryo.audit_chain_" + SCHEMA + "', '" + lastId + "|" + "f".repeat(64) + "|0', true)");
                ResultSet inserted = statement.executeQuery("INSERT INTO " + SCHEMA + ".audit_event (id, recorded_at, event_id, kind,"
                        + " event_time, kafka_topic, kafka_partition, kafka_offset, headers, prev_hash, row_hash)"
                        + " VALUES (" + (lastId + 1) + ", now(), 'forged-" + lastId + "', 'event', now(), 'cryo.test', 0, 0, '{}',"
                        + " repeat('e', 64), repeat('e', 64)) RETURNING prev_hash, row_hash");
                inserted.next();
                assertThat(inserted.getString(1)).as("the row continues the real head").isEqualTo(lastHash);
                assertThat(inserted.getString(2)).isNotEqualTo("e".repeat(64));
                assertThatThrownBy(() -> statement.execute("INSERT INTO " + SCHEMA + ".audit_event (id, recorded_at, event_id, kind,"
                        + " event_time, kafka_topic, kafka_partition, kafka_offset, headers, prev_hash, row_hash)"
                        + " VALUES (" + (lastId + 1) + ", now(), 'fork-" + lastId + "', 'event', now(), 'cryo.test', 0, 0, '{}', '', '')"))
                        .as("a second row with the same id would fork the chain")
                        .hasMessageContaining("the chain continues with id " + (lastId + 2));
            } finally {
                writer.rollback();
            }
        }
    }

    private static Connection connectAs(String role) throws SQLException {
        try {
            // the local infrastructure authenticates loopback connections by trust
            return DriverManager.getConnection(Infrastructure.jdbcUrl(), role, "");
        } catch (SQLException e) {
            throw new SQLException("Cannot log in as " + role + " (provision the roles with ./cryo infra up): " + e.getMessage(), e);
        }
    }

    private static long anyRowId() {
        return AppendOnlyTest.storedRowId();
    }
}
