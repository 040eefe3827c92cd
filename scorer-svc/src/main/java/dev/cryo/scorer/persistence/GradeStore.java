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
import dev.cryo.platform.persistence.EntityTransactions;
import dev.cryo.platform.persistence.TableScanKey;
import dev.cryo.scorer.ScorerErrorCode;
import dev.cryo.scorer.domain.CurrentGrade;
import dev.cryo.scorer.domain.GradeTransition;
import io.quarkus.panache.common.Sort;
import jakarta.enterprise.context.ApplicationScoped;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Grade history and current grades, as Panache entities ({@link GradeHistoryEntity}, {@link TableGradeEntity}).
 * A grading holds its table's lock ({@link EntityTransactions#lock}) until it commits: gradings of
 * one table by several consumers, a redelivery among them, decide one after the other against the
 * current grade the last one stored, so a band move is announced once.
 */
@ApplicationScoped
public class GradeStore {

    static final TypeReference<List<Deduction>> DEDUCTIONS = new TypeReference<>() {
    };
    private static final TypeReference<Map<String, String>> PROPERTIES = new TypeReference<>() {
    };

    /**
     * Stores a grading and decides whether the band moved. A scan stored before is not graded again:
     * its stored events come back, so that a redelivery republishes the same events (same ids) if they
     * may not have reached the broker. Joins the caller's transaction.
     */
    public Recorded record(GradingRecord record) {
        EventEnvelope<TableGraded> envelope = record.graded();
        TableGraded graded = envelope.data();
        String tableId = graded.table().toString();
        return inTransaction("store the grade of scan " + graded.scanId(), () -> {
            EntityTransactions.lock(GradeHistoryEntity.getEntityManager(), "grade", tableId);
            GradeHistoryEntity stored = GradeHistoryEntity.findById(new TableScanKey(tableId, graded.scanId()));
            if (stored != null) {
                return stored(stored);
            }
            GradeHistoryEntity history = history(record);
            history.persist();
            TableGradeEntity row = TableGradeEntity.findById(tableId);
            Optional<CurrentGrade> current = Optional.ofNullable(row).map(existing -> new CurrentGrade(existing.scanId,
                    existing.scannedAt, existing.score, Grade.valueOf(existing.grade)));
            GradeTransition transition = GradeTransition.of(current, graded, record.scannedAt(), record.fixes());
            boolean replaces = transition.effect() == GradeTransition.Effect.REPLACES_CURRENT;
            if (replaces) {
                if (row == null) {
                    row = new TableGradeEntity();
                    row.tableId = tableId;
                    row.catalog = graded.table().catalog();
                    row.namespace = graded.table().namespaceName();
                    setCurrent(row, record);
                    row.persist();
                } else {
                    setCurrent(row, record);
                }
            }
            Optional<EventEnvelope<GradeChanged>> change = transition.change().map(data -> new EventEnvelope<>(
                    record.changeEventId(), EventType.GRADE_CHANGED, envelope.source(), envelope.time(),
                    envelope.subject(), envelope.correlationId(), envelope.actor(), data));
            change.ifPresent(event -> {
                history.gradeChanged = EventJson.writeString(event.data());
                history.gradeChangedEventId = event.id();
            });
            GradeHistoryEntity.flush();
            return new Recorded(envelope, change, replaces ? Recorded.Outcome.NEW_CURRENT : Recorded.Outcome.NEW_HISTORY_ONLY);
        });
    }

    /** Notes that the broker acknowledged a scan's events: a later redelivery publishes nothing. */
    public void markPublished(TableId table, String scanId) {
        inTransaction("mark scan " + scanId + " published", () -> GradeHistoryEntity.update(
                "publishedAt = ?1 where tableId = ?2 and scanId = ?3 and publishedAt is null",
                Instant.now(), table.toString(), scanId));
    }

    /** The current grading of a table: its newest scan. */
    public Optional<StoredGrading> current(TableId table) {
        return inTransaction("read the grades of " + table, () ->
                TableGradeEntity.<TableGradeEntity>findByIdOptional(table.toString())
                        .map(row -> GradeHistoryEntity.<GradeHistoryEntity>findById(new TableScanKey(row.tableId, row.scanId)))
                        .map(GradeStore::grading));
    }

    /** A table's gradings, newest scan first. */
    public List<StoredGrading> history(TableId table, int limit) {
        return inTransaction("read the grades of " + table, () -> GradeHistoryEntity.<GradeHistoryEntity>find("tableId",
                        Sort.descending("scannedAt", "gradedAt"), table.toString())
                .page(0, limit).list().stream().map(GradeStore::grading).toList());
    }

    private static GradeHistoryEntity history(GradingRecord record) {
        EventEnvelope<TableGraded> envelope = record.graded();
        TableGraded graded = envelope.data();
        GradeHistoryEntity history = new GradeHistoryEntity();
        history.tableId = graded.table().toString();
        history.scanId = graded.scanId();
        history.setGrading(record);
        history.dataBytes = record.dataBytes();
        history.properties = EventJson.writeString(record.properties());
        history.tableGraded = EventJson.writeString(graded);
        history.gradedEventId = envelope.id();
        history.eventSource = envelope.source();
        history.correlationId = envelope.correlationId();
        history.actor = envelope.actor();
        return history;
    }

    private static void setCurrent(TableGradeEntity row, GradingRecord record) {
        TableGraded graded = record.graded().data();
        row.scanId = graded.scanId();
        row.setGrading(record);
        row.deductions = EventJson.writeString(graded.deductions());
    }

    /** The events a stored grading published, with their stored ids and attributes. */
    private static Recorded stored(GradeHistoryEntity row) {
        TableGraded graded = EventJson.read(bytes(row.tableGraded), TableGraded.class);
        EventEnvelope<TableGraded> gradedEnvelope = new EventEnvelope<>(row.gradedEventId, EventType.TABLE_GRADED,
                row.eventSource, graded.gradedAt(), graded.table().toString(), row.correlationId, row.actor, graded);
        Optional<EventEnvelope<GradeChanged>> change = Optional.ofNullable(row.gradeChanged)
                .map(json -> EventJson.read(bytes(json), GradeChanged.class))
                .map(data -> new EventEnvelope<>(row.gradeChangedEventId, EventType.GRADE_CHANGED, row.eventSource,
                        graded.gradedAt(), graded.table().toString(), row.correlationId, row.actor, data));
        return new Recorded(gradedEnvelope, change,
                row.publishedAt == null ? Recorded.Outcome.STORED_UNPUBLISHED : Recorded.Outcome.STORED_PUBLISHED);
    }

    private static StoredGrading grading(GradeHistoryEntity row) {
        if (row == null) {
            throw new CryoException(ScorerErrorCode.STORED_GRADE_UNREADABLE,
                    "Cannot read a current grade: its scan is missing from the history");
        }
        TableGraded graded = EventJson.read(bytes(row.tableGraded), TableGraded.class);
        Optional<GradeChanged> change = Optional.ofNullable(row.gradeChanged)
                .map(json -> EventJson.read(bytes(json), GradeChanged.class));
        return new StoredGrading(graded, change, row.scannedAt, row.dataBytes, parse(row.properties, PROPERTIES),
                row.correlationId, row.actor);
    }

    static <T> T parse(String json, TypeReference<T> type) {
        try {
            return EventJson.mapper().readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new CryoException(ScorerErrorCode.STORED_GRADE_UNREADABLE,
                    "Cannot read a stored grade: " + e.getOriginalMessage(), e);
        }
    }

    private static byte[] bytes(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }

    private static <T> T inTransaction(String action, Supplier<T> work) {
        return EntityTransactions.call(CommonErrorCode.DEPENDENCY_UNAVAILABLE, action, work);
    }
}
