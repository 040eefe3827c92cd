package dev.cryo.scorer.persistence;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import dev.cryo.contracts.Grade;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.cloudevents.EventType;
import dev.cryo.contracts.event.Deduction;
import dev.cryo.contracts.event.GradeChanged;
import dev.cryo.contracts.event.TableGraded;
import dev.cryo.contracts.json.EventJson;
import dev.cryo.platform.error.CommonErrorCode;
import dev.cryo.platform.error.CryoException;
import dev.cryo.scorer.ScorerErrorCode;
import dev.cryo.scorer.domain.CurrentGrade;
import dev.cryo.scorer.domain.GradeTransition;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Grade history and current grades in PostgreSQL, with plain JDBC. */
@ApplicationScoped
public class GradeStore {

    static final TypeReference<List<Deduction>> DEDUCTIONS = new TypeReference<>() {
    };
    private static final TypeReference<Map<String, String>> PROPERTIES = new TypeReference<>() {
    };

    private final AgroalDataSource dataSource;

    GradeStore(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * Stores a grading and decides, under a lock on the table's current grade, whether the band
     * moved. A scan stored before is not graded again: its stored events come back, so that a
     * redelivery republishes the same events (same ids) if they may not have reached the broker.
     */
    @Transactional
    public Recorded record(GradingRecord record) {
        EventEnvelope<TableGraded> envelope = record.graded();
        TableGraded graded = envelope.data();
        try (Connection connection = dataSource.getConnection()) {
            if (!insertHistory(connection, record)) {
                return stored(connection, graded.table(), graded.scanId());
            }
            Optional<CurrentGrade> current = lockCurrent(connection, graded.table());
            GradeTransition transition = GradeTransition.of(current, graded, record.scannedAt(), record.fixes());
            if (current.isEmpty() && !insertCurrent(connection, record)) {
                // Another consumer graded this table's first scan meanwhile: decide against its grade.
                current = lockCurrent(connection, graded.table());
                transition = GradeTransition.of(current, graded, record.scannedAt(), record.fixes());
                if (transition.effect() == GradeTransition.Effect.REPLACES_CURRENT) {
                    updateCurrent(connection, record);
                }
            } else if (current.isPresent() && transition.effect() == GradeTransition.Effect.REPLACES_CURRENT) {
                updateCurrent(connection, record);
            }
            Optional<EventEnvelope<GradeChanged>> change = transition.change().map(data -> new EventEnvelope<>(
                    record.changeEventId(), EventType.GRADE_CHANGED, envelope.source(), envelope.time(),
                    envelope.subject(), envelope.correlationId(), envelope.actor(), data));
            if (change.isPresent()) {
                try (PreparedStatement update = connection.prepareStatement(
                        "UPDATE grade_history SET grade_changed = ?::jsonb, grade_changed_event_id = ? "
                                + "WHERE table_id = ? AND scan_id = ?")) {
                    update.setString(1, EventJson.writeString(change.get().data()));
                    update.setString(2, change.get().id());
                    update.setString(3, graded.table().toString());
                    update.setString(4, graded.scanId());
                    update.executeUpdate();
                }
            }
            return new Recorded(envelope, change, transition.effect() == GradeTransition.Effect.REPLACES_CURRENT
                    ? Recorded.Outcome.NEW_CURRENT : Recorded.Outcome.NEW_HISTORY_ONLY);
        } catch (SQLException e) {
            throw unavailable("store the grade of scan " + graded.scanId(), e);
        }
    }

    /** Notes that the broker acknowledged a scan's events: a later redelivery publishes nothing. */
    @Transactional
    public void markPublished(TableId table, String scanId) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement update = connection.prepareStatement("UPDATE grade_history SET published_at = now() "
                     + "WHERE table_id = ? AND scan_id = ? AND published_at IS NULL")) {
            update.setString(1, table.toString());
            update.setString(2, scanId);
            update.executeUpdate();
        } catch (SQLException e) {
            throw unavailable("mark scan " + scanId + " published", e);
        }
    }

    /** The current grading of a table: its newest scan. */
    public Optional<StoredGrading> current(TableId table) {
        return queryGradings("SELECT h.table_graded, h.grade_changed, h.scanned_at, h.data_bytes, h.properties, h.correlation_id, h.actor "
                + "FROM table_grade t JOIN grade_history h ON h.table_id = t.table_id AND h.scan_id = t.scan_id "
                + "WHERE t.table_id = ? LIMIT ?",
                table.toString(), 1).stream().findFirst();
    }

    /** A table's gradings, newest scan first. */
    public List<StoredGrading> history(TableId table, int limit) {
        return queryGradings("SELECT table_graded, grade_changed, scanned_at, data_bytes, properties, correlation_id, actor "
                + "FROM grade_history WHERE table_id = ? ORDER BY scanned_at DESC, graded_at DESC LIMIT ?",
                table.toString(), limit);
    }

    private static boolean insertHistory(Connection connection, GradingRecord record) throws SQLException {
        EventEnvelope<TableGraded> envelope = record.graded();
        TableGraded graded = envelope.data();
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO grade_history (scan_id, table_id, "
                + "snapshot_id, scanned_at, graded_at, score, grade, data_bytes, properties, table_graded, graded_event_id, "
                + "event_source, correlation_id, actor) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, ?, ?, ?) "
                + "ON CONFLICT (table_id, scan_id) DO NOTHING")) {
            insert.setString(1, graded.scanId());
            insert.setString(2, graded.table().toString());
            setLong(insert, 3, graded.snapshotId());
            insert.setTimestamp(4, Timestamp.from(record.scannedAt()));
            insert.setTimestamp(5, Timestamp.from(graded.gradedAt()));
            insert.setInt(6, graded.score());
            insert.setString(7, graded.grade().name());
            insert.setLong(8, record.dataBytes());
            insert.setString(9, EventJson.writeString(record.properties()));
            insert.setString(10, EventJson.writeString(graded));
            insert.setString(11, envelope.id());
            insert.setString(12, envelope.source());
            insert.setString(13, envelope.correlationId());
            insert.setString(14, envelope.actor());
            return insert.executeUpdate() == 1;
        }
    }

    private static Optional<CurrentGrade> lockCurrent(Connection connection, TableId table) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT scan_id, scanned_at, score, grade FROM table_grade WHERE table_id = ? FOR UPDATE")) {
            select.setString(1, table.toString());
            try (ResultSet rows = select.executeQuery()) {
                if (!rows.next()) {
                    return Optional.empty();
                }
                return Optional.of(new CurrentGrade(rows.getString(1), rows.getTimestamp(2).toInstant(), rows.getInt(3),
                        Grade.valueOf(rows.getString(4))));
            }
        }
    }

    private static boolean insertCurrent(Connection connection, GradingRecord record) throws SQLException {
        TableGraded graded = record.graded().data();
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO table_grade (table_id, catalog, "
                + "namespace, scan_id, snapshot_id, scanned_at, graded_at, score, grade, deductions) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb) ON CONFLICT (table_id) DO NOTHING")) {
            insert.setString(1, graded.table().toString());
            insert.setString(2, graded.table().catalog());
            insert.setString(3, graded.table().namespaceName());
            insert.setString(4, graded.scanId());
            setLong(insert, 5, graded.snapshotId());
            insert.setTimestamp(6, Timestamp.from(record.scannedAt()));
            insert.setTimestamp(7, Timestamp.from(graded.gradedAt()));
            insert.setInt(8, graded.score());
            insert.setString(9, graded.grade().name());
            insert.setString(10, EventJson.writeString(graded.deductions()));
            return insert.executeUpdate() == 1;
        }
    }

    private static void updateCurrent(Connection connection, GradingRecord record) throws SQLException {
        TableGraded graded = record.graded().data();
        try (PreparedStatement update = connection.prepareStatement("UPDATE table_grade SET scan_id = ?, snapshot_id = ?, "
                + "scanned_at = ?, graded_at = ?, score = ?, grade = ?, deductions = ?::jsonb WHERE table_id = ?")) {
            update.setString(1, graded.scanId());
            setLong(update, 2, graded.snapshotId());
            update.setTimestamp(3, Timestamp.from(record.scannedAt()));
            update.setTimestamp(4, Timestamp.from(graded.gradedAt()));
            update.setInt(5, graded.score());
            update.setString(6, graded.grade().name());
            update.setString(7, EventJson.writeString(graded.deductions()));
            update.setString(8, graded.table().toString());
            update.executeUpdate();
        }
    }

    private static Recorded stored(Connection connection, TableId table, String scanId) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("SELECT table_graded, graded_event_id, grade_changed, "
                + "grade_changed_event_id, event_source, correlation_id, actor, published_at FROM grade_history "
                + "WHERE table_id = ? AND scan_id = ?")) {
            select.setString(1, table.toString());
            select.setString(2, scanId);
            try (ResultSet rows = select.executeQuery()) {
                if (!rows.next()) {
                    throw new CryoException(ScorerErrorCode.STORED_GRADE_UNREADABLE,
                            "Cannot read the stored grade of scan " + scanId + ": it vanished during the transaction");
                }
                TableGraded graded = EventJson.read(bytes(rows.getString(1)), TableGraded.class);
                String source = rows.getString(5);
                String correlationId = rows.getString(6);
                String actor = rows.getString(7);
                EventEnvelope<TableGraded> gradedEnvelope = new EventEnvelope<>(rows.getString(2), EventType.TABLE_GRADED,
                        source, graded.gradedAt(), graded.table().toString(), correlationId, actor, graded);
                Optional<EventEnvelope<GradeChanged>> change = Optional.ofNullable(rows.getString(3))
                        .map(json -> EventJson.read(bytes(json), GradeChanged.class))
                        .map(data -> new EventEnvelope<>(readString(rows, 4), EventType.GRADE_CHANGED, source,
                                graded.gradedAt(), graded.table().toString(), correlationId, actor, data));
                Recorded.Outcome outcome = rows.getTimestamp(8) == null
                        ? Recorded.Outcome.STORED_UNPUBLISHED : Recorded.Outcome.STORED_PUBLISHED;
                return new Recorded(gradedEnvelope, change, outcome);
            }
        }
    }

    private List<StoredGrading> queryGradings(String sql, String tableId, int limit) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(sql)) {
            select.setString(1, tableId);
            select.setInt(2, limit);
            List<StoredGrading> gradings = new ArrayList<>();
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    TableGraded graded = EventJson.read(bytes(rows.getString(1)), TableGraded.class);
                    Optional<GradeChanged> change = Optional.ofNullable(rows.getString(2))
                            .map(json -> EventJson.read(bytes(json), GradeChanged.class));
                    gradings.add(new StoredGrading(graded, change, rows.getTimestamp(3).toInstant(), rows.getLong(4),
                            parse(rows.getString(5), PROPERTIES), rows.getString(6), rows.getString(7)));
                }
            }
            return gradings;
        } catch (SQLException e) {
            throw unavailable("read the grades of " + tableId, e);
        }
    }

    static <T> T parse(String json, TypeReference<T> type) {
        try {
            return EventJson.mapper().readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new CryoException(ScorerErrorCode.STORED_GRADE_UNREADABLE,
                    "Cannot read a stored grade: " + e.getOriginalMessage(), e);
        }
    }

    private static String readString(ResultSet rows, int column) {
        try {
            return rows.getString(column);
        } catch (SQLException e) {
            throw unavailable("read a stored grade change", e);
        }
    }

    private static byte[] bytes(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }

    private static void setLong(PreparedStatement statement, int index, Long value) throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.BIGINT);
        } else {
            statement.setLong(index, value);
        }
    }

    static CryoException unavailable(String action, SQLException cause) {
        return new CryoException(CommonErrorCode.DEPENDENCY_UNAVAILABLE, "Cannot " + action + ": " + cause.getMessage(),
                cause);
    }
}
