package dev.cryo.scanner.persistence;

import dev.cryo.contracts.TableId;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.ChangeSource;
import dev.cryo.contracts.event.OrphanStats;
import dev.cryo.contracts.event.TableChanged;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.contracts.json.EventJson;
import dev.cryo.platform.error.CryoException;
import dev.cryo.platform.messaging.ProcessedEvents;
import dev.cryo.scanner.ScannerErrorCode;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The scanner's per-table state in PostgreSQL: pending changes, last scan, last error, last orphan listing.
 * Plain JDBC: every change is one conditional upsert ({@code ON CONFLICT ... CASE}) that counts versions in
 * the database, so concurrent consumers never lose an increment; an entity's read-modify-write would.
 */
@ApplicationScoped
public class TableStateStore {

    static final String CONSUMER = "scanner";

    private final AgroalDataSource dataSource;
    private final ProcessedEvents processed;

    TableStateStore(AgroalDataSource dataSource, ProcessedEvents processed) {
        this.dataSource = dataSource;
        this.processed = processed;
    }

    /** What became of a change. */
    public enum Recorded {
        /** Stored: the table waits for a scan. */
        NEW,
        /** Seen before (a redelivery): nothing stored again. */
        REDELIVERED,
        /**
         * A commit report or watcher change of the very snapshot the last published scan read (the
         * watcher and the writer's reporter often announce the same commit): nothing to scan.
         */
        ALREADY_SCANNED
    }

    /**
     * An operator's scan request (manual change) still waits for its scan, and the arriving change
     * is not one: the scan that covers both stays the operator's (their id, source and actor), so
     * a commit report or webhook landing in between does not turn "fix now" into an ordinary scan.
     */
    private static final String OPERATOR_REQUEST_WAITS = "table_state.change_version > table_state.scanned_version "
            + "AND table_state.last_change_source = 'manual' AND excluded.last_change_source <> 'manual'";

    /**
     * Records a change in the same transaction as its event id, so a redelivered event is not
     * counted twice and a crash after this commit still scans the table.
     */
    @Transactional
    public Recorded recordChange(EventEnvelope<TableChanged> envelope) {
        if (!processed.markProcessed(CONSUMER, envelope.id())) {
            return Recorded.REDELIVERED;
        }
        TableChanged change = envelope.data();
        if (change.snapshotId() != null
                && (change.source() == ChangeSource.COMMIT_REPORT || change.source() == ChangeSource.WATCHER)
                && change.snapshotId().equals(lastScannedSnapshot(change.table()))) {
            return Recorded.ALREADY_SCANNED;
        }
        String sql = """
                INSERT INTO table_state (table_id, catalog, change_version, last_change_id, last_change_source,
                    last_change_actor, last_change_detected_at, last_change_committed_at, last_change_job_id, pending_since)
                VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (table_id) DO UPDATE SET
                    change_version = table_state.change_version + 1,
                    last_change_id = CASE WHEN %1$s THEN table_state.last_change_id ELSE excluded.last_change_id END,
                    last_change_source = CASE WHEN %1$s THEN table_state.last_change_source
                        ELSE excluded.last_change_source END,
                    last_change_actor = CASE WHEN %1$s THEN table_state.last_change_actor ELSE excluded.last_change_actor END,
                    last_change_detected_at = excluded.last_change_detected_at,
                    last_change_committed_at = excluded.last_change_committed_at,
                    last_change_job_id = excluded.last_change_job_id,
                    pending_since = COALESCE(table_state.pending_since, excluded.pending_since)
                """.formatted(OPERATOR_REQUEST_WAITS);
        try (Connection connection = dataSource.getConnection(); PreparedStatement upsert = connection.prepareStatement(sql)) {
            upsert.setString(1, change.table().toString());
            upsert.setString(2, change.table().catalog());
            upsert.setString(3, envelope.id());
            upsert.setString(4, change.source().id());
            upsert.setString(5, envelope.actor() != null ? envelope.actor() : change.actor());
            upsert.setTimestamp(6, Timestamp.from(change.detectedAt()));
            setInstant(upsert, 7, change.committedAt());
            upsert.setString(8, change.cryoJobId());
            upsert.setTimestamp(9, Timestamp.from(change.detectedAt()));
            upsert.executeUpdate();
            return Recorded.NEW;
        } catch (SQLException e) {
            throw unavailable("record a change of " + change.table(), e);
        }
    }

    private Long lastScannedSnapshot(TableId table) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(
                     "SELECT last_snapshot_id FROM table_state WHERE table_id = ?")) {
            select.setString(1, table.toString());
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? row.getObject(1, Long.class) : null;
            }
        } catch (SQLException e) {
            throw unavailable("read the last scan of " + table, e);
        }
    }

    /** Tables with a change not yet covered by a scan. */
    public List<TableId> pendingTables() {
        List<TableId> tables = new ArrayList<>();
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(
                     "SELECT table_id FROM table_state WHERE change_version > scanned_version ORDER BY pending_since");
             ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                tables.add(TableId.parse(rows.getString(1)));
            }
        } catch (SQLException e) {
            throw unavailable("read pending tables", e);
        }
        return tables;
    }

    /** The newest change of the table, if one waits for a scan. */
    public Optional<PendingChange> pending(TableId table) {
        String sql = """
                SELECT change_version, last_change_id, last_change_source, last_change_actor, last_change_detected_at,
                       last_change_committed_at, last_change_job_id, pending_since
                FROM table_state WHERE table_id = ? AND change_version > scanned_version
                """;
        try (Connection connection = dataSource.getConnection(); PreparedStatement select = connection.prepareStatement(sql)) {
            select.setString(1, table.toString());
            try (ResultSet row = select.executeQuery()) {
                if (!row.next()) {
                    return Optional.empty();
                }
                return Optional.of(new PendingChange(table, row.getLong(1), row.getString(2), row.getString(3),
                        row.getString(4), instant(row, 5), instant(row, 6), row.getString(7), instant(row, 8)));
            }
        } catch (SQLException e) {
            throw unavailable("read the pending change of " + table, e);
        }
    }

    /** The scan covering change version {@code version} was published. */
    public void recordScan(PendingChange change, TableScanned scan) {
        String sql = """
                UPDATE table_state SET
                    scanned_version = GREATEST(scanned_version, ?),
                    pending_since = CASE WHEN change_version <= ? THEN NULL ELSE pending_since END,
                    last_scan_id = ?, last_scanned_at = ?, last_scan_source = ?, last_snapshot_id = ?, last_scan = ?,
                    last_error = NULL, last_error_at = NULL
                WHERE table_id = ?
                """;
        try (Connection connection = dataSource.getConnection(); PreparedStatement update = connection.prepareStatement(sql)) {
            update.setLong(1, change.version());
            update.setLong(2, change.version());
            update.setString(3, scan.scanId());
            update.setTimestamp(4, Timestamp.from(scan.scannedAt()));
            update.setString(5, change.source());
            if (scan.snapshotId() == null) {
                update.setNull(6, Types.BIGINT);
            } else {
                update.setLong(6, scan.snapshotId());
            }
            update.setString(7, EventJson.writeString(scan));
            update.setString(8, change.table().toString());
            update.executeUpdate();
        } catch (SQLException e) {
            throw unavailable("record the scan of " + change.table(), e);
        }
    }

    /**
     * The table could not be scanned for a reason a retry will not fix (dropped, unreadable): the
     * change counts as handled, so no endless retry; the error is kept for the REST API.
     */
    public void recordError(PendingChange change, String error) {
        String sql = """
                UPDATE table_state SET
                    scanned_version = GREATEST(scanned_version, ?),
                    pending_since = CASE WHEN change_version <= ? THEN NULL ELSE pending_since END,
                    last_error = ?, last_error_at = now()
                WHERE table_id = ?
                """;
        try (Connection connection = dataSource.getConnection(); PreparedStatement update = connection.prepareStatement(sql)) {
            update.setLong(1, change.version());
            update.setLong(2, change.version());
            update.setString(3, error.length() > 2000 ? error.substring(0, 2000) : error);
            update.setString(4, change.table().toString());
            update.executeUpdate();
        } catch (SQLException e) {
            throw unavailable("record the scan error of " + change.table(), e);
        }
    }

    public void recordOrphans(TableId table, OrphanStats orphans) {
        String sql = """
                INSERT INTO table_state (table_id, catalog, orphans_listed_at, orphans_listed_files, orphan_files,
                    orphan_bytes, orphans_age_floor, orphans_other_tables_files, orphans_refusal)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (table_id) DO UPDATE SET
                    orphans_listed_at = excluded.orphans_listed_at, orphans_listed_files = excluded.orphans_listed_files,
                    orphan_files = excluded.orphan_files, orphan_bytes = excluded.orphan_bytes,
                    orphans_age_floor = excluded.orphans_age_floor,
                    orphans_other_tables_files = excluded.orphans_other_tables_files,
                    orphans_refusal = excluded.orphans_refusal
                """;
        try (Connection connection = dataSource.getConnection(); PreparedStatement upsert = connection.prepareStatement(sql)) {
            upsert.setString(1, table.toString());
            upsert.setString(2, table.catalog());
            upsert.setTimestamp(3, Timestamp.from(orphans.listedAt()));
            upsert.setLong(4, orphans.listedFiles());
            upsert.setLong(5, orphans.orphanFiles());
            upsert.setLong(6, orphans.orphanBytes());
            upsert.setString(7, orphans.ageFloor().toString());
            upsert.setLong(8, orphans.otherTablesFiles());
            upsert.setString(9, orphans.refusal());
            upsert.executeUpdate();
        } catch (SQLException e) {
            throw unavailable("record the orphan listing of " + table, e);
        }
    }

    /** The table's last orphan listing, if one ran. */
    public Optional<OrphanStats> orphans(TableId table) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement("""
                     SELECT orphans_listed_at, orphans_listed_files, orphan_files, orphan_bytes, orphans_age_floor,
                         orphans_other_tables_files, orphans_refusal
                     FROM table_state WHERE table_id = ? AND orphans_listed_at IS NOT NULL""")) {
            select.setString(1, table.toString());
            try (ResultSet row = select.executeQuery()) {
                if (!row.next()) {
                    return Optional.empty();
                }
                return Optional.of(new OrphanStats(instant(row, 1), row.getLong(2), row.getLong(3), row.getLong(4),
                        Duration.parse(row.getString(5)), row.getLong(6), row.getString(7)));
            }
        } catch (SQLException e) {
            throw unavailable("read the orphan listing of " + table, e);
        }
    }

    /** The last published scan of the table as JSON. */
    public Optional<String> lastScan(TableId table) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(
                     "SELECT last_scan FROM table_state WHERE table_id = ? AND last_scan IS NOT NULL")) {
            select.setString(1, table.toString());
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? Optional.of(row.getString(1)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw unavailable("read the last scan of " + table, e);
        }
    }

    public List<TableSummary> tables() {
        List<TableSummary> tables = new ArrayList<>();
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement("""
                     SELECT table_id, last_scanned_at, last_scan_source, last_snapshot_id,
                            change_version > scanned_version, last_error, last_error_at, orphans_listed_at
                     FROM table_state ORDER BY table_id""");
             ResultSet row = select.executeQuery()) {
            while (row.next()) {
                tables.add(new TableSummary(row.getString(1), instant(row, 2), row.getString(3),
                        row.getObject(4, Long.class), row.getBoolean(5), row.getString(6), instant(row, 7),
                        instant(row, 8)));
            }
        } catch (SQLException e) {
            throw unavailable("list tables", e);
        }
        return tables;
    }

    private static void setInstant(PreparedStatement statement, int index, Instant value) throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.TIMESTAMP_WITH_TIMEZONE);
        } else {
            statement.setTimestamp(index, Timestamp.from(value));
        }
    }

    private static Instant instant(ResultSet row, int index) throws SQLException {
        Timestamp timestamp = row.getTimestamp(index);
        return timestamp == null ? null : timestamp.toInstant();
    }

    static CryoException unavailable(String action, SQLException e) {
        return new CryoException(ScannerErrorCode.DATABASE_UNAVAILABLE, "Cannot " + action + ": " + e.getMessage(), e);
    }
}
