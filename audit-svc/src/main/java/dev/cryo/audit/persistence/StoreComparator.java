package dev.cryo.audit.persistence;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Compares two audit stores over the same Kafka records: for every record in the scope, both must
 * hold the same row content (the canonical content without the store-local id and recording time).
 * Chain order itself differs legitimately: the live store interleaves topics as they arrive,
 * a rebuild reads them in another order; each store's own chain is verified separately.
 */
@ApplicationScoped
public class StoreComparator {

    /**
     * Kafka records to compare: offsets {@code [from, to)} of each topic partition.
     *
     * @param topic the topic
     * @param partition the partition
     * @param from the first offset
     * @param to the offset after the last
     */
    public record Range(String topic, int partition, long from, long to) {
    }

    /**
     * One store's side.
     *
     * @param rows rows in the scope
     * @param rowsByType rows per event type (kind for rows without one)
     * @param digest SHA-256 over every "event id:content hash" line in event-id order: equal digests, equal contents
     */
    public record Side(long rows, Map<String, Long> rowsByType, String digest) {
        public Side {
            rowsByType = Map.copyOf(rowsByType);
        }
    }

    /**
     * The outcome.
     *
     * @param live the live store within the scope
     * @param other the other store
     * @param differences event ids whose content differs or that only one store holds
     * @param differingEventIds the first of them
     */
    public record Comparison(Side live, Side other, long differences, List<String> differingEventIds) {
        public Comparison {
            differingEventIds = List.copyOf(differingEventIds);
        }

        public boolean equal() {
            return differences == 0 && live.rows() == other.rows() && live.digest().equals(other.digest());
        }
    }

    private final AgroalDataSource dataSource;

    StoreComparator(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Compares the live schema's rows within {@code ranges} with every row of {@code otherSchema}. */
    public Comparison compare(String liveSchema, List<Range> ranges, String otherSchema, int maxReported) {
        String live = AuditStore.checkSchemaName(liveSchema);
        String other = AuditStore.checkSchemaName(otherSchema);
        String scope = "unnest(?::text[], ?::int[], ?::bigint[], ?::bigint[]) AS s(topic, part, lo, hi)";
        String liveRows = "SELECT e.* FROM " + live + ".audit_event e JOIN " + scope
                + " ON e.kafka_topic = s.topic AND e.kafka_partition = s.part AND e.kafka_offset >= s.lo AND e.kafka_offset < s.hi";
        String otherRows = "SELECT e.* FROM " + other + ".audit_event e";
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            try {
                Side liveSide = side(connection, live, liveRows, ranges);
                Side otherSide = side(connection, other, otherRows, null);
                String differing = "WITH l AS (SELECT r.event_id, " + hash(live) + " AS h FROM (" + liveRows + ") r), "
                        + "o AS (SELECT r.event_id, " + hash(other) + " AS h FROM (" + otherRows + ") r) "
                        + "SELECT coalesce(l.event_id, o.event_id) FROM l FULL JOIN o ON l.event_id = o.event_id "
                        + "WHERE l.h IS DISTINCT FROM o.h ORDER BY 1";
                long differences = 0;
                List<String> ids = new ArrayList<>();
                try (PreparedStatement select = connection.prepareStatement(differing)) {
                    bindRanges(connection, select, ranges);
                    try (ResultSet result = select.executeQuery()) {
                        while (result.next()) {
                            differences++;
                            if (ids.size() < maxReported) {
                                ids.add(result.getString(1));
                            }
                        }
                    }
                }
                connection.commit();
                return new Comparison(liveSide, otherSide, differences, ids);
            } finally {
                connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
                connection.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw SqlErrors.translate("compare schema " + other + " with " + live, e);
        }
    }

    private static String hash(String schema) {
        return "encode(sha256(convert_to(" + schema + ".audit_content(r), 'UTF8')), 'hex')";
    }

    /** Counts and digests one side, streaming its rows in event-id order (constant memory on any size). */
    private static Side side(Connection connection, String schema, String rows, List<Range> rangesOrNull)
            throws SQLException {
        Map<String, Long> byType = new TreeMap<>();
        long total = 0;
        MessageDigest digest = sha256();
        try (PreparedStatement select = connection.prepareStatement("SELECT r.event_id, coalesce(r.event_type, r.kind), "
                + hash(schema) + " FROM (" + rows + ") r ORDER BY r.event_id")) {
            if (rangesOrNull != null) {
                bindRanges(connection, select, rangesOrNull);
            }
            select.setFetchSize(1000);
            try (ResultSet result = select.executeQuery()) {
                while (result.next()) {
                    byType.merge(result.getString(2), 1L, Long::sum);
                    total++;
                    digest.update((result.getString(1) + ":" + result.getString(3) + "\n").getBytes(StandardCharsets.UTF_8));
                }
            }
        }
        return new Side(total, byType, HexFormat.of().formatHex(digest.digest()));
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    private static void bindRanges(Connection connection, PreparedStatement statement, List<Range> ranges)
            throws SQLException {
        statement.setArray(1, connection.createArrayOf("text", ranges.stream().map(Range::topic).toArray()));
        statement.setArray(2, connection.createArrayOf("int4", ranges.stream().map(Range::partition).toArray()));
        statement.setArray(3, connection.createArrayOf("int8", ranges.stream().map(Range::from).toArray()));
        statement.setArray(4, connection.createArrayOf("int8", ranges.stream().map(Range::to).toArray()));
    }
}
