package dev.cryo.audit;

import dev.cryo.audit.domain.Hashes;
import dev.cryo.audit.messaging.ChainAnchors;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.kafka.KafkaEnvelopes;
import dev.cryo.testsupport.KafkaTestClient;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The database, not the service, keeps the log append-only; and the chain shows any change made around it. */
@QuarkusTest
class AppendOnlyTest {

    private static final String EVENTS = Database.SCHEMA + ".audit_event";

    @Inject
    ChainAnchors anchors;

    @Test
    void theServicesOwnCredentialsCannotUpdateDeleteOrTruncate() throws SQLException {
        long id = storedRowId();
        try (Connection writer = Database.writer(); Statement statement = writer.createStatement()) {
            assertThatThrownBy(() -> statement.executeUpdate("UPDATE " + EVENTS + " SET detail = 'x' WHERE id = " + id))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("permission denied for table audit_event");
            assertThatThrownBy(() -> statement.executeUpdate("DELETE FROM " + EVENTS + " WHERE id = " + id))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("permission denied for table audit_event");
            assertThatThrownBy(() -> statement.executeUpdate("TRUNCATE " + EVENTS))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("permission denied for table audit_event");
            assertThatThrownBy(() -> statement.executeUpdate("DELETE FROM " + Database.SCHEMA + ".audit_event_id"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("permission denied for table audit_event_id");
            assertThatThrownBy(() -> statement.executeUpdate("UPDATE " + Database.SCHEMA + ".audit_chain_head SET last_id = 0"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("permission denied for table audit_chain_head");
            String partition = Database.SCHEMA + ".audit_event_" + java.time.YearMonth.now(java.time.ZoneOffset.UTC)
                    .toString().replace('-', '_');
            assertThatThrownBy(() -> statement.executeUpdate("DELETE FROM " + partition))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("permission denied for table audit_event_");
        }
    }

    @Test
    void theOwnerIsRefusedByTheTriggersToo() throws SQLException {
        long id = storedRowId();
        try (Connection owner = Database.owner(); Statement statement = owner.createStatement()) {
            assertThatThrownBy(() -> statement.executeUpdate("UPDATE " + EVENTS + " SET detail = 'x' WHERE id = " + id))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("Cannot UPDATE audit_event_")
                    .hasMessageContaining("audit rows are append-only");
            assertThatThrownBy(() -> statement.executeUpdate("DELETE FROM " + EVENTS + " WHERE id = " + id))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("audit rows are append-only");
            assertThatThrownBy(() -> statement.executeUpdate("TRUNCATE " + EVENTS))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("Cannot TRUNCATE audit_event: audit rows are append-only");
        }
    }

    @Test
    void aRowChangedBySuperuserMakesVerifyReportExactlyThatRow() throws SQLException {
        long id = storedRowId();
        assertThat(verify().getString("status")).isEqualTo("OK");
        String original;
        try (Connection owner = Database.owner(); Statement statement = owner.createStatement()) {
            var result = statement.executeQuery("SELECT detail FROM " + EVENTS + " WHERE id = " + id);
            result.next();
            original = result.getString(1);
        }

        setDetail(id, "nothing happened here");
        JsonPath broken = verify();
        setDetail(id, original);
        JsonPath repaired = verify();

        assertThat(broken.getString("status")).isEqualTo("BROKEN");
        assertThat(broken.getLong("firstBreak.id")).isEqualTo(id);
        assertThat(broken.getString("firstBreak.problem"))
                .isEqualTo("row " + id + " does not match its hash: it changed after it was written");
        assertThat(broken.getString("firstBreak.expectedHash")).isNotEqualTo(broken.getString("firstBreak.storedHash"));
        assertThat(broken.getList("brokenRowIds", Long.class)).containsExactly(id);
        assertThat(broken.getLong("breakCount")).isEqualTo(1);
        assertThat(repaired.getString("status")).isEqualTo("OK");
        assertThat(repaired.getLong("rowsChecked")).isGreaterThanOrEqualTo(id);
    }

    @Test
    void aStoredHashIsSha256OfThePreviousHashAndTheCanonicalContent() throws SQLException {
        long id = storedRowId();
        try (Connection writer = Database.writer(); PreparedStatement select = writer.prepareStatement(
                "SELECT e.prev_hash, e.row_hash, " + Database.SCHEMA + ".audit_canonical(e) FROM " + EVENTS + " e WHERE e.id = ?")) {
            select.setLong(1, id);
            var result = select.executeQuery();
            result.next();

            assertThat(Hashes.rowHash(result.getString(1), result.getString(3))).isEqualTo(result.getString(2));
            assertThat(result.getString(3)).startsWith("[\"v1\", " + id + ", \"");
        }
    }

    /**
     * The attack a hash chain alone cannot see: whoever holds the database rewrites a row and
     * recomputes every later hash and the head, so that every link holds again. The anchor on
     * cryo.audit-anchors.v1, outside the database, still names the old hash of its row.
     */
    @Test
    void aRowRewrittenAndReChainedByTheDatabaseOwnerIsReportedThroughTheAnchor() throws SQLException {
        long id = storedRowId();
        anchors.anchorNow();
        JsonPath before = verify();
        assertThat(before.getString("status")).isEqualTo("OK");
        assertThat(before.getString("anchoring.method")).isEqualTo("kafka-anchors");
        assertThat(before.getString("anchoring.topic")).isEqualTo("cryo.audit-anchors.v1");
        assertThat(before.getString("anchoring.status")).isEqualTo("OK");
        long anchoredId = before.getLong("anchoring.anchoredId");
        assertThat(anchoredId).isGreaterThanOrEqualTo(id);
        String original;
        try (Connection owner = Database.owner(); Statement statement = owner.createStatement()) {
            var result = statement.executeQuery("SELECT detail FROM " + EVENTS + " WHERE id = " + id);
            result.next();
            original = result.getString(1);
        }

        reChain(id, "nothing happened here");
        JsonPath rechained = verify();
        reChain(id, original);
        JsonPath repaired = verify();

        assertThat(rechained.getLong("breakCount")).as("every link holds again").isZero();
        assertThat(rechained.getString("status")).isEqualTo("BROKEN");
        assertThat(rechained.getString("anchoring.status")).isEqualTo("MISMATCH");
        assertThat(rechained.getLong("anchoring.anchoredId")).isEqualTo(anchoredId);
        assertThat(rechained.getString("anchoring.message")).startsWith("row " + anchoredId + " (anchored ")
                .contains("was anchored with " + before.getString("anchoring.anchoredHash"),
                        "rows up to it were rewritten and the chain recomputed after them");
        assertThat(repaired.getString("status")).isEqualTo("OK");
        assertThat(repaired.getString("anchoring.status")).isEqualTo("OK");
    }

    /**
     * As the database's superuser: sets a row's detail and recomputes the hashes of it and of
     * every later row, and the head, with the database's own function, holding the chain's lock.
     */
    private static void reChain(long id, String detail) throws SQLException {
        try (Connection owner = Database.owner()) {
            owner.setAutoCommit(false);
            try (Statement statement = owner.createStatement()) {
                statement.execute("SET LOCAL session_replication_role = replica");
                statement.execute("SELECT * FROM " + Database.SCHEMA + ".audit_chain_head FOR UPDATE");
            }
            try (PreparedStatement update = owner.prepareStatement("UPDATE " + EVENTS + " SET detail = ? WHERE id = ?")) {
                update.setString(1, detail);
                update.setLong(2, id);
                assertThat(update.executeUpdate()).isEqualTo(1);
            }
            try (Statement rechain = owner.createStatement()) {
                rechain.execute(RECHAIN.formatted(Database.SCHEMA, id));
            }
            owner.commit();
        }
    }

    private static final String RECHAIN = """
            DO $$
            DECLARE
                r RECORD;
                prev TEXT := (SELECT prev_hash FROM %1$s.audit_event WHERE id = %2$d);
            BEGIN
                FOR r IN SELECT * FROM %1$s.audit_event WHERE id >= %2$d ORDER BY id LOOP
                    UPDATE %1$s.audit_event
                       SET prev_hash = prev,
                           row_hash = encode(sha256(convert_to(prev || %1$s.audit_canonical(r), 'UTF8')), 'hex')
                     WHERE id = r.id
                    RETURNING row_hash INTO prev;
                END LOOP;
                UPDATE %1$s.audit_chain_head SET last_hash = prev;
            END
            $$""";

    /** As a superuser who switches triggers off for the session, the way a replication tool would. */
    private static void setDetail(long id, String detail) throws SQLException {
        try (Connection owner = Database.owner()) {
            try (Statement statement = owner.createStatement()) {
                statement.execute("SET session_replication_role = replica");
            }
            try (PreparedStatement update = owner.prepareStatement("UPDATE " + EVENTS + " SET detail = ? WHERE id = ?")) {
                update.setString(1, detail);
                update.setLong(2, id);
                assertThat(update.executeUpdate()).isEqualTo(1);
            }
        }
    }

    private static JsonPath verify() {
        return given().get("/api/v1/audit/verify").then().statusCode(200).extract().jsonPath();
    }

    /** Sends an event of a table of its own and returns the id of its row. */
    static long storedRowId() {
        TableId table = SampleEvents.uniqueTable("append_only");
        EventEnvelope<?> event = SampleEvents.change(table, 1);
        try (KafkaTestClient kafka = new KafkaTestClient()) {
            kafka.send(KafkaEnvelopes.toRecord(event));
        }
        List<Map<String, Object>> rows = IngestTest.awaitEvents("table=" + table, List.of(event.id()));
        return ((Number) rows.get(0).get("id")).longValue();
    }
}
