package dev.cryo.audit.domain;

import dev.cryo.audit.messaging.AuditConsumers;
import dev.cryo.contracts.Topics;
import dev.cryo.contracts.cloudevents.EventType;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Topics, cursors, stages and export formats. */
class SmallDomainTest {

    @Test
    void everyTopicButReplayAndTheAnchorsIsIngestedAndEveryChannelHasAConsumer() {
        List<String> all = Topics.all().stream().map(Topics.Spec::name).toList();
        assertThat(AuditTopics.all()).containsExactlyInAnyOrderElementsOf(all.stream()
                .filter(t -> !t.equals(Topics.REPLAY) && !t.equals(Topics.AUDIT_ANCHORS)).toList());
        List<String> channels = Arrays.stream(AuditConsumers.class.getMethods())
                .filter(method -> method.isAnnotationPresent(Incoming.class))
                .map(method -> method.getAnnotation(Incoming.class).value()).toList();
        assertThat(channels).containsExactlyInAnyOrderElementsOf(
                AuditTopics.all().stream().map(AuditTopics::channel).distinct().toList());
        assertThat(channels).doesNotContain(Topics.REPLAY);
    }

    @Test
    void topicsFallIntoFamilies() {
        assertThat(AuditTopics.family(Topics.TABLE_CHANGED)).isEqualTo("changes");
        assertThat(AuditTopics.family(Topics.GRADE_CHANGES)).isEqualTo("grades");
        assertThat(AuditTopics.family(Topics.JOBS_DEFERRED)).isEqualTo("jobs");
        assertThat(AuditTopics.family(Topics.deadLetter("executor"))).isEqualTo("dead-letters");
        assertThat(AuditTopics.family("cryo.something-new.v1")).isEqualTo("something-new");
        assertThat(AuditTopics.eventTopics().stream().map(AuditTopics::family).distinct())
                .containsExactlyInAnyOrder("changes", "scans", "grades", "plans", "jobs");
    }

    @Test
    void aCursorSurvivesItsEncoding() {
        PageCursor cursor = new PageCursor(Instant.parse("2026-03-04T05:06:07.123456789Z"), 42);

        PageCursor back = PageCursor.decode(cursor.encode());

        assertThat(back).isEqualTo(new PageCursor(Instant.parse("2026-03-04T05:06:07.123456Z"), 42));
        assertThat(cursor.encode()).doesNotContain("=", "+", "/");
    }

    @Test
    void aForeignCursorIsRefused() {
        assertThatThrownBy(() -> PageCursor.decode("bm90LWEtY3Vyc29y"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot read cursor 'bm90LWEtY3Vyc29y': pass the 'next' value of the previous page");
    }

    @Test
    void everyEventTypeHasATimelineStageInTheOrderOfAChange() {
        assertThat(Arrays.stream(EventType.values()).map(TimelineStage::of)).doesNotContain(TimelineStage.FAILED_DELIVERY);
        assertThat(TimelineStage.of(RecordKind.EVENT, EventType.TABLE_CHANGED.id())).isEqualTo(TimelineStage.CHANGE);
        assertThat(TimelineStage.of(RecordKind.EVENT, EventType.JOB_FINISHED.id())).isEqualTo(TimelineStage.RESULT);
        assertThat(TimelineStage.of(RecordKind.DEAD_LETTER, EventType.JOB_FINISHED.id())).isEqualTo(TimelineStage.FAILED_DELIVERY);
        assertThat(TimelineStage.values()).startsWith(TimelineStage.CHANGE, TimelineStage.SCAN, TimelineStage.GRADE,
                TimelineStage.PLAN, TimelineStage.ADMIT, TimelineStage.DEFER, TimelineStage.JOB, TimelineStage.RESULT);
    }

    @Test
    void csvCellsAreQuotedOnlyWhenTheyMustBe() {
        assertThat(RowWriter.Csv.escape("plain")).isEqualTo("plain");
        assertThat(RowWriter.Csv.escape("a,b")).isEqualTo("\"a,b\"");
        assertThat(RowWriter.Csv.escape("say \"hi\"")).isEqualTo("\"say \"\"hi\"\"\"");
        assertThat(RowWriter.Csv.escape("two\nlines")).isEqualTo("\"two\nlines\"");
    }

    @Test
    void exportsStartWithTheirHeaderAndWriteOneLinePerRow() {
        ByteArrayOutputStream csv = new ByteArrayOutputStream();
        ByteArrayOutputStream jsonl = new ByteArrayOutputStream();
        AuditRow row = row();

        try (RowWriter writer = RowWriter.of(ExportFormat.CSV, csv)) {
            writer.write(row);
        }
        try (RowWriter writer = RowWriter.of(ExportFormat.JSONL, jsonl)) {
            writer.write(row);
            writer.write(row);
        }

        String[] csvLines = csv.toString(StandardCharsets.UTF_8).split("\r\n");
        assertThat(csvLines[0]).isEqualTo(String.join(",", RowWriter.CSV_COLUMNS));
        assertThat(csvLines[1]).startsWith("7,2026-01-01T00:00:01Z,2026-01-01T00:00:00Z,e-1,event,dev.cryo.table.changed.v1,");
        assertThat(csvLines[1]).contains(",\"{\"\"a\"\":1}\",");
        String[] jsonLines = jsonl.toString(StandardCharsets.UTF_8).split("\n");
        assertThat(jsonLines).hasSize(2);
        assertThat(jsonLines[0]).startsWith("{\"id\":7,").contains("\"payload\":{\"a\":1}", "\"headers\":[]");
        assertThatThrownBy(() -> ExportFormat.fromId("xml"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot export as 'xml': expected csv or jsonl");
    }

    private static AuditRow row() {
        EventColumns columns = new EventColumns(EventType.TABLE_CHANGED.id(), "/cryo/scanner", "lake.ns.t", List.of(), null,
                "changed", null, "operator:alice", null, "noticed by manual", "e-1", null, null);
        AuditRecord record = new AuditRecord("e-1", RecordKind.EVENT, Instant.parse("2026-01-01T00:00:00Z"), columns,
                new KafkaPosition(Topics.TABLE_CHANGED, 0, 3, "lake.ns.t", null), "[]", "{\"a\":1}", null);
        return new AuditRow(7, Instant.parse("2026-01-01T00:00:01Z"), record, Hashes.GENESIS, "ab".repeat(32));
    }
}
