package dev.cryo.audit.persistence;

import dev.cryo.audit.AuditErrorCode;
import dev.cryo.audit.domain.ArchivedRange;
import dev.cryo.audit.domain.AuditRecord;
import dev.cryo.audit.domain.ChainHead;
import dev.cryo.audit.domain.ChainLink;
import dev.cryo.audit.domain.ChainVerifier;
import dev.cryo.audit.domain.VerifyReport;
import dev.cryo.platform.error.CryoException;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

import static dev.cryo.audit.persistence.AuditRows.clean;
import static dev.cryo.audit.persistence.AuditRows.utc;
import static java.util.Objects.requireNonNull;

/**
 * Appends to the audit log of one PostgreSQL schema (the live one, or a rebuild target) and
 * verifies its chain; {@link AuditQueries} reads it. Plain JDBC: the append holds the chain's row
 * lock until commit and the database's trigger hashes each row, an order an ORM's flush would not keep.
 *
 * <p>Appending is serialized by the chain lock ({@code audit_chain_lock()}, a row lock on the chain
 * head held until commit): ids and recording times are assigned under it, and the database's
 * trigger computes each row's hashes. A batch is one transaction, so a crash leaves either all of
 * it or none, and a redelivered batch finds its event ids already stored.
 */
public class AuditStore {

    private static final Pattern SCHEMA_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

    private final DataSource dataSource;
    private final String schema;
    private final Clock clock;
    private final Set<YearMonth> knownPartitions = ConcurrentHashMap.newKeySet();

    public AuditStore(DataSource dataSource, String schema, Clock clock) {
        this.dataSource = requireNonNull(dataSource, "dataSource is null");
        this.schema = checkSchemaName(schema);
        this.clock = requireNonNull(clock, "clock is null");
    }

    /**
     * A schema name the audit accepts: lower-case letters, digits and {@code _}, so that it needs no
     * quoting anywhere.
     *
     * @throws IllegalArgumentException naming the rule
     */
    public static String checkSchemaName(String schema) {
        requireNonNull(schema, "schema is null");
        if (!SCHEMA_NAME.matcher(schema).matches()) {
            throw new IllegalArgumentException("Cannot use schema '" + schema
                    + "': use 1 to 63 lower-case letters, digits and '_', starting with a letter or '_'");
        }
        return schema;
    }

    public String schema() {
        return schema;
    }

    /**
     * What one append did.
     *
     * @param stored the records stored now, in chain order
     * @param duplicates records skipped because their event id was stored before (or earlier in the batch)
     * @param lastId the id of the last row stored now (0 when none was)
     */
    public record AppendResult(List<AuditRecord> stored, int duplicates, long lastId) {
        public AppendResult {
            stored = List.copyOf(stored);
        }
    }

    /**
     * Stores the records that are not stored yet, in their order, as one transaction. Records whose
     * event id is already stored (a redelivery), or repeats an earlier record of the batch, are counted
     * as duplicates and skipped.
     *
     * @throws CryoException {@link AuditErrorCode#STORE_UNAVAILABLE} when a retry may succeed,
     *                       {@link AuditErrorCode#ROW_REFUSED} when the database refuses the data of a row,
     *                       {@link AuditErrorCode#STORE_FAILED} otherwise
     */
    public AppendResult append(List<AuditRecord> records) {
        requireNonNull(records, "records is null");
        if (records.isEmpty()) {
            return new AppendResult(List.of(), 0, 0);
        }
        Map<String, AuditRecord> unique = new LinkedHashMap<>();
        records.forEach(record -> unique.putIfAbsent(record.eventId(), record));
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                AppendResult result = appendLocked(connection, unique, records.size());
                connection.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw SqlErrors.translate("append " + records.size() + " audit row(s) to schema " + schema, e);
        }
    }

    private AppendResult appendLocked(Connection connection, Map<String, AuditRecord> unique, int offered)
            throws SQLException {
        long lastId;
        Instant lastRecordedAt;
        try (Statement lock = connection.createStatement();
             ResultSet head = lock.executeQuery("SELECT last_id, last_recorded_at FROM " + schema + ".audit_chain_lock()")) {
            head.next();
            lastId = head.getLong(1);
            OffsetDateTime last = head.getObject(2, OffsetDateTime.class);
            lastRecordedAt = last == null ? Instant.MIN : last.toInstant();
        }
        Set<String> stored = existingIds(connection, unique.keySet());
        List<AuditRecord> fresh = unique.values().stream().filter(record -> !stored.contains(record.eventId())).toList();
        int duplicates = offered - fresh.size();
        if (fresh.isEmpty()) {
            return new AppendResult(List.of(), duplicates, 0);
        }
        // Never earlier than the chain's last row, whatever this host's clock says.
        Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
        Instant recordedAt = now.isBefore(lastRecordedAt) ? lastRecordedAt : now;
        ensurePartition(connection, recordedAt);
        long id = AuditBatchInsert.insert(connection, schema, recordedAt, lastId, fresh);
        return new AppendResult(fresh, duplicates, id);
    }

    private Set<String> existingIds(Connection connection, Set<String> eventIds) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT event_id FROM " + schema + ".audit_event_id WHERE event_id = ANY (?)")) {
            select.setArray(1, connection.createArrayOf("text", eventIds.stream().map(AuditRows::clean).toArray()));
            Set<String> found = new HashSet<>();
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    found.add(rows.getString(1));
                }
            }
            return found;
        }
    }

    /**
     * Makes sure the partition of the month that contains {@code at} exists, and the next
     * {@code monthsAhead} ones.
     */
    public void ensurePartitions(Instant at, int monthsAhead) {
        try (Connection connection = dataSource.getConnection()) {
            YearMonth month = YearMonth.from(at.atOffset(ZoneOffset.UTC));
            for (int i = 0; i <= monthsAhead; i++) {
                ensurePartition(connection, month.plusMonths(i).atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC));
            }
        } catch (SQLException e) {
            throw SqlErrors.translate("create the monthly partitions of schema " + schema, e);
        }
    }

    private void ensurePartition(Connection connection, Instant at) throws SQLException {
        YearMonth month = YearMonth.from(at.atOffset(ZoneOffset.UTC));
        if (knownPartitions.contains(month)) {
            return;
        }
        try (PreparedStatement ensure = connection.prepareStatement("SELECT " + schema + ".audit_ensure_partition(?)")) {
            ensure.setObject(1, utc(at));
            ensure.execute();
        }
        knownPartitions.add(month);
    }

    /**
     * Recomputes the chain: reads the head, the archived ranges and every row in id order from one
     * snapshot (ingestion goes on meanwhile; what it adds after the snapshot is not checked).
     */
    public VerifyReport verify(int fetchSize, int maxReportedBreaks) {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            connection.setReadOnly(true);
            try {
                ChainHead head;
                try (Statement statement = connection.createStatement();
                     ResultSet result = statement.executeQuery("SELECT last_id, last_hash FROM " + schema + ".audit_chain_head")) {
                    result.next();
                    head = new ChainHead(result.getLong(1), result.getString(2));
                }
                List<ArchivedRange> archived = new ArrayList<>();
                try (Statement statement = connection.createStatement();
                     ResultSet result = statement.executeQuery("SELECT partition_name, first_id, last_id, first_prev_hash, "
                             + "last_hash FROM " + schema + ".audit_archive ORDER BY first_id")) {
                    while (result.next()) {
                        archived.add(new ArchivedRange(result.getString(1), result.getLong(2), result.getLong(3),
                                result.getString(4), result.getString(5)));
                    }
                }
                ChainVerifier verifier = new ChainVerifier(archived, maxReportedBreaks);
                // The hash is recomputed where the content is: only ids and hashes cross the wire.
                try (PreparedStatement select = connection.prepareStatement("SELECT e.id, e.prev_hash, e.row_hash, "
                        + "encode(sha256(convert_to(e.prev_hash || " + schema + ".audit_canonical(e), 'UTF8')), 'hex') FROM "
                        + schema + ".audit_event e ORDER BY e.id")) {
                    select.setFetchSize(fetchSize);
                    try (ResultSet result = select.executeQuery()) {
                        while (result.next()) {
                            verifier.check(new ChainLink(result.getLong(1), result.getString(2), result.getString(3),
                                    result.getString(4)));
                        }
                    }
                }
                connection.commit();
                return verifier.finish(head);
            } finally {
                connection.setReadOnly(false);
                connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
                connection.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw SqlErrors.translate("verify the audit chain of schema " + schema, e);
        }
    }

    /**
     * The stored hash of one row: from the live table, or, when the row ended an archived month,
     * the hash its archive link recorded.
     */
    public Optional<String> storedHash(long id) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement("SELECT row_hash FROM " + schema + ".audit_event WHERE id = ?"
                     + " UNION ALL SELECT last_hash FROM " + schema + ".audit_archive WHERE last_id = ? LIMIT 1")) {
            select.setLong(1, id);
            select.setLong(2, id);
            try (ResultSet result = select.executeQuery()) {
                return result.next() ? Optional.of(result.getString(1)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw SqlErrors.translate("read the hash of row " + id + " of schema " + schema, e);
        }
    }

    /** The end of the chain. */
    public ChainHead head() {
        try (Connection connection = dataSource.getConnection();
             Statement statement = connection.createStatement();
             ResultSet result = statement.executeQuery("SELECT last_id, last_hash FROM " + schema + ".audit_chain_head")) {
            result.next();
            return new ChainHead(result.getLong(1), result.getString(2));
        } catch (SQLException e) {
            throw SqlErrors.translate("read the chain head of schema " + schema, e);
        }
    }
}
