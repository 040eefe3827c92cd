package dev.cryo.audit;

import dev.cryo.audit.app.RebuildTargets;
import dev.cryo.audit.domain.AuditFilter;
import dev.cryo.audit.domain.VerifyReport;
import dev.cryo.audit.persistence.AuditQueries;
import dev.cryo.audit.persistence.AuditStore;
import dev.cryo.contracts.TableId;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Retention: an operator archives an old month (export, then detach) without UPDATE or DELETE, and
 * the chain still verifies across the gap. Runs in a schema of its own, with a clock set months back.
 */
@QuarkusTest
class ArchiveTest {

    @Inject
    RebuildTargets schemas;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void anOldMonthIsArchivedByDetachingItsPartitionAndTheChainStillVerifies() throws SQLException {
        String schema = "audit_test_archive_" + UUID.randomUUID().toString().substring(0, 8);
        schemas.check(schema);
        schemas.create(schema);
        try {
            YearMonth old = YearMonth.now(ZoneOffset.UTC).minusMonths(3);
            SettableClock clock = new SettableClock(old.atDay(10).atStartOfDay().toInstant(ZoneOffset.UTC));
            AuditStore store = new AuditStore(dataSource, schema, clock);
            TableId table = SampleEvents.uniqueTable("archive");
            store.append(BulkRecords.changes(table, 0, 5));
            clock.now = old.plusMonths(1).atDay(3).atStartOfDay().toInstant(ZoneOffset.UTC);
            store.append(BulkRecords.changes(table, 5, 4));
            clock.now = Instant.now();
            store.append(BulkRecords.changes(table, 9, 3));
            long exported = new AuditQueries(dataSource, schema).stream(new AuditFilter(null, null, null, null, null, null, null, null, null, null, null, old),
                    100, row -> { });

            String partition = "audit_event_" + old.toString().replace('-', '_');
            try (Connection owner = Database.owner()) {
                try (PreparedStatement archive = owner.prepareStatement("SELECT " + schema + ".audit_archive_month(?)")) {
                    archive.setObject(1, old.atDay(1).atStartOfDay().atOffset(ZoneOffset.UTC));
                    archive.execute();
                }
                VerifyReport report = store.verify(100, 10);

                assertThat(exported).isEqualTo(5);
                assertThat(report.intact()).isTrue();
                assertThat(report.rowsArchived()).isEqualTo(5);
                assertThat(report.rowsChecked()).isEqualTo(7);
                assertThat(Database.count("SELECT count(*) FROM " + schema + "." + partition + "_archived")).isEqualTo(5);
                assertThat(Database.count("SELECT count(*) FROM " + schema + ".audit_event")).isEqualTo(7);
                try (Statement statement = owner.createStatement()) {
                    assertThatThrownBy(() -> statement.executeUpdate("DELETE FROM " + schema + "." + partition + "_archived"))
                            .isInstanceOf(SQLException.class)
                            .hasMessageContaining("audit rows are append-only");
                    assertThatThrownBy(() -> statement.execute("SELECT " + schema + ".audit_archive_month(now())"))
                            .isInstanceOf(SQLException.class)
                            .hasMessageContaining("only months before the current one can be archived");
                }
            }
        } finally {
            Database.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        }
    }

    @Test
    void theServiceRoleCannotArchive() throws SQLException {
        try (Connection writer = Database.writer(); Statement statement = writer.createStatement()) {
            assertThatThrownBy(() -> statement.execute("SELECT " + Database.SCHEMA + ".audit_archive_month(now() - interval '2 months')"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("permission denied for function audit_archive_month");
        }
    }

    /** A clock the test moves by hand. */
    private static final class SettableClock extends Clock {
        volatile Instant now;

        SettableClock(Instant now) {
            this.now = now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
