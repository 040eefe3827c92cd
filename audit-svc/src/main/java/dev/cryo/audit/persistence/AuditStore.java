package dev.cryo.audit.persistence;

import dev.cryo.audit.AuditErrorCode;
import dev.cryo.audit.domain.ArchivedRange;
import dev.cryo.audit.domain.AuditFilter;
import dev.cryo.audit.domain.AuditRecord;
import dev.cryo.audit.domain.AuditRow;
import dev.cryo.audit.domain.ChainHead;
import dev.cryo.audit.domain.ChainLink;
import dev.cryo.audit.domain.ChainVerifier;
import dev.cryo.audit.domain.EventColumns;
import dev.cryo.audit.domain.KafkaPosition;
import dev.cryo.audit.domain.PageCursor;
import dev.cryo.audit.domain.RecordKind;
import dev.cryo.audit.domain.VerifyReport;
import dev.cryo.platform.error.CryoException;

import javax.sql.DataSource;
import java.sql.Array;
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
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * The audit log of one PostgreSQL schema (the live one, or a rebuild target), over plain JDBC.
 *
 * <p>Appending is serialized by the chain lock ({@code audit_chain_lock()}, a row lock on the chain
 * head held until commit): ids and recording times are assigned under it, and the database's
 * trigger computes each row's hashes. A batch is one transaction, so a crash leaves either all of
 * it or none, and a redelivered batch finds its event ids already stored.
 */
public class AuditStore {

    private static final Pattern SCHEMA_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

    private static final String COLUMNS = "id, recorded_at, event_id, kind, event_time, event_type, source, table_id, "
            + "operations, engine, status, duration_ms, actor, reason, detail, correlation_id, job_id, plan_id, "
            + "kafka_topic, kafka_partition, kafka_offset, kafka_key, kafka_timestamp, headers, payload, raw_value, "
            + "prev_hash, row_hash";

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
        // One statement per batch: the rows travel as one array per column (far fewer bind parameters
        // than multi-row VALUES) and are inserted in their order, which is the chain's.
        int size = fresh.size();
        Object[] ids = new Object[size];
        Object[] eventIds = new Object[size];
        Object[] kinds = new Object[size];
        Object[] eventTimes = new Object[size];
        Object[] eventTypes = new Object[size];
        Object[] sources = new Object[size];
        Object[] tables = new Object[size];
        Object[] operations = new Object[size];
        Object[] engines = new Object[size];
        Object[] statuses = new Object[size];
        Object[] durations = new Object[size];
        Object[] actors = new Object[size];
        Object[] reasons = new Object[size];
        Object[] details = new Object[size];
        Object[] correlations = new Object[size];
        Object[] jobs = new Object[size];
        Object[] plans = new Object[size];
        Object[] topics = new Object[size];
        Object[] partitions = new Object[size];
        Object[] offsets = new Object[size];
        Object[] keys = new Object[size];
        Object[] timestamps = new Object[size];
        Object[] headers = new Object[size];
        Object[] payloads = new Object[size];
        byte[][] rawValues = new byte[size][];
        long id = lastId;
        for (int i = 0; i < size; i++) {
            AuditRecord record = fresh.get(i);
            EventColumns columns = record.columns();
            KafkaPosition position = record.position();
            ids[i] = ++id;
            eventIds[i] = clean(record.eventId());
            kinds[i] = record.kind().id();
            eventTimes[i] = utc(record.eventTime());
            eventTypes[i] = clean(columns.eventType());
            sources[i] = clean(columns.source());
            tables[i] = clean(columns.table());
            // Operation ids never hold a comma; an empty list is stored as NULL.
            operations[i] = columns.operations().isEmpty() ? null : clean(String.join(",", columns.operations()));
            engines[i] = clean(columns.engine());
            statuses[i] = clean(columns.status());
            durations[i] = columns.durationMillis();
            actors[i] = clean(columns.actor());
            reasons[i] = clean(columns.reason());
            details[i] = clean(columns.detail());
            correlations[i] = clean(columns.correlationId());
            jobs[i] = clean(columns.jobId());
            plans[i] = clean(columns.planId());
            topics[i] = clean(position.topic());
            partitions[i] = position.partition();
            offsets[i] = position.offset();
            keys[i] = clean(position.key());
            timestamps[i] = position.timestamp() == null ? null : utc(position.timestamp());
            headers[i] = record.headersJson();
            payloads[i] = record.payloadJson();
            rawValues[i] = record.rawValue();
        }
        try (PreparedStatement insertIds = connection.prepareStatement("INSERT INTO " + schema
                + ".audit_event_id (event_id, audit_id, recorded_at) SELECT e, i, ? FROM unnest(?::text[], ?::bigint[]) AS u(e, i)");
             PreparedStatement insert = connection.prepareStatement("INSERT INTO " + schema + ".audit_event ("
                     + COLUMNS.replace(", prev_hash, row_hash", "") + ") SELECT u.id, ?, u.event_id, u.kind, u.event_time, "
                     + "u.event_type, u.source, u.table_id, string_to_array(u.operations, ','), u.engine, u.status, "
                     + "u.duration_ms, u.actor, u.reason, u.detail, u.correlation_id, u.job_id, u.plan_id, u.kafka_topic, "
                     + "u.kafka_partition, u.kafka_offset, u.kafka_key, u.kafka_timestamp, u.headers::jsonb, "
                     + "u.payload::jsonb, u.raw_value FROM unnest(?::bigint[], ?::text[], ?::text[], ?::timestamptz[], "
                     + "?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::bigint[], ?::text[], ?::text[], "
                     + "?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::int[], ?::bigint[], ?::text[], "
                     + "?::timestamptz[], ?::text[], ?::text[], ?::bytea[]) WITH ORDINALITY AS u(id, event_id, kind, "
                     + "event_time, event_type, source, table_id, operations, engine, status, duration_ms, actor, reason, "
                     + "detail, correlation_id, job_id, plan_id, kafka_topic, kafka_partition, kafka_offset, kafka_key, "
                     + "kafka_timestamp, headers, payload, raw_value, position) ORDER BY u.position")) {
            insertIds.setObject(1, utc(recordedAt));
            insertIds.setArray(2, connection.createArrayOf("text", eventIds));
            insertIds.setArray(3, connection.createArrayOf("int8", ids));
            insertIds.executeUpdate();
            int i = 1;
            insert.setObject(i++, utc(recordedAt));
            insert.setArray(i++, connection.createArrayOf("int8", ids));
            insert.setArray(i++, connection.createArrayOf("text", eventIds));
            insert.setArray(i++, connection.createArrayOf("text", kinds));
            insert.setArray(i++, connection.createArrayOf("timestamptz", eventTimes));
            for (Object[] text : List.of(eventTypes, sources, tables, operations, engines, statuses)) {
                insert.setArray(i++, connection.createArrayOf("text", text));
            }
            insert.setArray(i++, connection.createArrayOf("int8", durations));
            for (Object[] text : List.of(actors, reasons, details, correlations, jobs, plans, topics)) {
                insert.setArray(i++, connection.createArrayOf("text", text));
            }
            insert.setArray(i++, connection.createArrayOf("int4", partitions));
            insert.setArray(i++, connection.createArrayOf("int8", offsets));
            insert.setArray(i++, connection.createArrayOf("text", keys));
            insert.setArray(i++, connection.createArrayOf("timestamptz", timestamps));
            insert.setArray(i++, connection.createArrayOf("text", headers));
            insert.setArray(i++, connection.createArrayOf("text", payloads));
            insert.setArray(i, connection.createArrayOf("bytea", rawValues));
            insert.executeUpdate();
            return new AppendResult(fresh, duplicates, id);
        }
    }

    private Set<String> existingIds(Connection connection, Set<String> eventIds) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT event_id FROM " + schema + ".audit_event_id WHERE event_id = ANY (?)")) {
            select.setArray(1, connection.createArrayOf("text", eventIds.stream().map(AuditStore::clean).toArray()));
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

    /** The stored row of an event id. */
    public java.util.Optional<AuditRow> findByEventId(String eventId) {
        String sql = "SELECT " + COLUMNS + " FROM " + schema + ".audit_event WHERE (id, recorded_at) = "
                + "(SELECT audit_id, recorded_at FROM " + schema + ".audit_event_id WHERE event_id = ?)";
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(sql)) {
            select.setString(1, clean(eventId));
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() ? java.util.Optional.of(row(rows)) : java.util.Optional.empty();
            }
        } catch (SQLException e) {
            throw SqlErrors.translate("read audit event " + eventId, e);
        }
    }

    /** One page of the newest-first listing. */
    public record Page(List<AuditRow> rows, PageCursor next) {
        public Page {
            rows = List.copyOf(rows);
        }
    }

    /**
     * The newest rows that match, after the cursor (keyset pagination on (event time, id): a page
     * costs the same however deep it is, and rows arriving meanwhile do not shift it).
     */
    public Page page(AuditFilter filter, PageCursor after, int limit, long maxBytes) {
        FilterSql where = FilterSql.of(filter);
        StringBuilder condition = new StringBuilder(where.sql());
        List<Object> parameters = new ArrayList<>(where.parameters());
        if (after != null) {
            condition.append(" AND (e.event_time, e.id) < (?, ?)");
            parameters.add(utc(after.eventTime()));
            parameters.add(after.id());
        }
        Bounded result = withinBudget(condition.toString(), parameters, "DESC", limit, maxBytes, "list audit rows");
        return new Page(result.rows(), result.more() ? result.rows().get(result.rows().size() - 1).cursor() : null);
    }

    /**
     * Rows read within a row limit and a byte budget.
     *
     * @param rows the rows, in the order asked for
     * @param more whether more rows matched than the limit or the byte budget let through
     */
    public record Bounded(List<AuditRow> rows, boolean more) {
        public Bounded {
            rows = List.copyOf(rows);
        }
    }

    /**
     * Every row of a correlation id, oldest first, up to {@code limit} rows and {@code maxBytes} of stored
     * payloads and raw values (a chain has a few dozen events, but a producer can tag any number of 8 MiB
     * malformed records with one correlation id: those must not run the service out of memory).
     */
    public Bounded timeline(String correlationId, int limit, long maxBytes) {
        return withinBudget("e.correlation_id = ?", List.of(clean(correlationId)), "ASC", limit, maxBytes,
                "read the timeline of " + correlationId);
    }

    /**
     * The first {@code limit} rows matching {@code condition} in (event time, id) order, stopping before the
     * row that would take the stored payload and raw value bytes past {@code maxBytes} (at least one row).
     */
    private Bounded withinBudget(String condition, List<Object> conditionParameters, String direction, int limit,
                                  long maxBytes, String action) {
        String order = "ORDER BY e.event_time " + direction + ", e.id " + direction;
        // Each row's stored payload and raw value bytes (pg_column_size reads the stored size without
        // detoasting) and the bytes of the rows before it, so that the database returns only the rows that
        // start within the byte budget: a page of 8 MiB malformed records never reaches this JVM whole.
        String sql = "SELECT * FROM (SELECT " + COLUMNS + ", "
                + "coalesce(pg_column_size(e.payload), 0) + coalesce(octet_length(e.raw_value), 0) AS row_bytes, "
                + "sum(coalesce(pg_column_size(e.payload), 0) + coalesce(octet_length(e.raw_value), 0)) "
                + "OVER (" + order + " ROWS UNBOUNDED PRECEDING) AS running_bytes FROM "
                + schema + ".audit_event e WHERE " + condition + " " + order + " LIMIT ?) e "
                + "WHERE e.running_bytes - e.row_bytes < ? " + order;
        List<Object> parameters = new ArrayList<>(conditionParameters);
        parameters.add(limit + 1);
        parameters.add(maxBytes);
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = prepare(connection, sql, parameters)) {
            List<AuditRow> rows = new ArrayList<>();
            boolean more = false;
            try (ResultSet result = select.executeQuery()) {
                while (result.next()) {
                    boolean fits = rows.isEmpty() || result.getLong("running_bytes") <= maxBytes;
                    if (rows.size() == limit || !fits) {
                        more = true;
                        break;
                    }
                    rows.add(row(result));
                }
            }
            return new Bounded(rows, more);
        } catch (SQLException e) {
            throw SqlErrors.translate(action, e);
        }
    }

    /**
     * Streams every matching row in chain order to {@code sink}, holding one fetch of rows at a time
     * (a server-side cursor: the JDBC driver fetches {@code fetchSize} rows per round trip).
     *
     * @return rows streamed
     */
    public long stream(AuditFilter filter, int fetchSize, Consumer<AuditRow> sink) {
        FilterSql where = FilterSql.of(filter);
        String sql = "SELECT " + COLUMNS + " FROM " + schema + ".audit_event e WHERE " + where.sql() + " ORDER BY e.id";
        try (Connection connection = dataSource.getConnection()) {
            // The PostgreSQL driver only uses a cursor inside a transaction.
            connection.setAutoCommit(false);
            try (PreparedStatement select = prepare(connection, sql, where.parameters())) {
                select.setFetchSize(fetchSize);
                long count = 0;
                try (ResultSet result = select.executeQuery()) {
                    while (result.next()) {
                        sink.accept(row(result));
                        count++;
                    }
                }
                connection.commit();
                return count;
            } finally {
                connection.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw SqlErrors.translate("export audit rows", e);
        }
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

    private static PreparedStatement prepare(Connection connection, String sql, List<Object> parameters) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        try {
            for (int i = 0; i < parameters.size(); i++) {
                statement.setObject(i + 1, parameters.get(i));
            }
            return statement;
        } catch (SQLException e) {
            statement.close();
            throw e;
        }
    }

    static AuditRow row(ResultSet result) throws SQLException {
        Array operations = result.getArray("operations");
        List<String> operationList = operations == null ? List.of() : Arrays.asList((String[]) operations.getArray());
        long duration = result.getLong("duration_ms");
        Long durationMillis = result.wasNull() ? null : duration;
        EventColumns columns = new EventColumns(result.getString("event_type"), result.getString("source"),
                result.getString("table_id"), operationList, result.getString("engine"), result.getString("status"),
                durationMillis, result.getString("actor"), result.getString("reason"), result.getString("detail"),
                result.getString("correlation_id"), result.getString("job_id"), result.getString("plan_id"));
        OffsetDateTime kafkaTimestamp = result.getObject("kafka_timestamp", OffsetDateTime.class);
        KafkaPosition position = new KafkaPosition(result.getString("kafka_topic"), result.getInt("kafka_partition"),
                result.getLong("kafka_offset"), result.getString("kafka_key"),
                kafkaTimestamp == null ? null : kafkaTimestamp.toInstant());
        AuditRecord record = new AuditRecord(result.getString("event_id"), RecordKind.fromId(result.getString("kind")),
                result.getObject("event_time", OffsetDateTime.class).toInstant(), columns, position,
                result.getString("headers"), result.getString("payload"), result.getBytes("raw_value"));
        return new AuditRow(result.getLong("id"), result.getObject("recorded_at", OffsetDateTime.class).toInstant(),
                record, result.getString("prev_hash"), result.getString("row_hash"));
    }

    static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }

    /** PostgreSQL text cannot hold NUL; a header or key that carries one is stored with U+FFFD instead. */
    static String clean(String text) {
        return text == null || text.indexOf('\u0000') < 0 ? text : text.replace('\u0000', '\uFFFD');
    }
}
