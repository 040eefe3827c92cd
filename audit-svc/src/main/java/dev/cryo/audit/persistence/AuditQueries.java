package dev.cryo.audit.persistence;

import dev.cryo.audit.domain.AuditFilter;
import dev.cryo.audit.domain.AuditRow;
import dev.cryo.audit.domain.PageCursor;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

import static dev.cryo.audit.persistence.AuditRows.clean;
import static dev.cryo.audit.persistence.AuditRows.utc;
import static java.util.Objects.requireNonNull;

/**
 * Reads of the audit log of one schema: one event, newest-first pages, a correlation's timeline and
 * the export stream, each bounded in rows or bytes or held one fetch at a time. Plain JDBC: keyset
 * paging under a byte budget ({@code pg_column_size} over a window) is a query an ORM does not write.
 */
public class AuditQueries {

    private final DataSource dataSource;
    private final String schema;

    public AuditQueries(DataSource dataSource, String schema) {
        this.dataSource = requireNonNull(dataSource, "dataSource is null");
        this.schema = AuditStore.checkSchemaName(schema);
    }

    /** The stored row of an event id. */
    public Optional<AuditRow> findByEventId(String eventId) {
        String sql = "SELECT " + AuditRows.COLUMNS + " FROM " + schema + ".audit_event WHERE (id, recorded_at) = "
                + "(SELECT audit_id, recorded_at FROM " + schema + ".audit_event_id WHERE event_id = ?)";
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(sql)) {
            select.setString(1, clean(eventId));
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() ? Optional.of(AuditRows.row(rows)) : Optional.empty();
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
        String sql = "SELECT * FROM (SELECT " + AuditRows.COLUMNS + ", "
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
                    rows.add(AuditRows.row(result));
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
        String sql = "SELECT " + AuditRows.COLUMNS + " FROM " + schema + ".audit_event e WHERE " + where.sql() + " ORDER BY e.id";
        try (Connection connection = dataSource.getConnection()) {
            // The PostgreSQL driver only uses a cursor inside a transaction.
            connection.setAutoCommit(false);
            try (PreparedStatement select = prepare(connection, sql, where.parameters())) {
                select.setFetchSize(fetchSize);
                long count = 0;
                try (ResultSet result = select.executeQuery()) {
                    while (result.next()) {
                        sink.accept(AuditRows.row(result));
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
}
