package dev.cryo.scorer.messaging;

import dev.cryo.contracts.Grade;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.Severity;
import dev.cryo.contracts.Topics;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.ChangeSource;
import dev.cryo.contracts.event.Deduction;
import dev.cryo.contracts.event.GradeChanged;
import dev.cryo.contracts.event.TableChanged;
import dev.cryo.contracts.event.TableGraded;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.contracts.kafka.KafkaEnvelopes;
import dev.cryo.platform.messaging.EventIds;
import dev.cryo.scorer.KafkaScans;
import dev.cryo.scorer.FreshConsumerGroup;
import dev.cryo.scoring.fixtures.ScanBuilder;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static dev.cryo.scoring.fixtures.ScanBuilder.healthy;
import static org.assertj.core.api.Assertions.assertThat;

/** The scorer on the real broker and database: scans in, grades and grade changes out. */
@QuarkusTest
@QuarkusTestResource(FreshConsumerGroup.class)
class ScorerKafkaTest {

    /** Snapshots of a minute ago are expirable only where the table's retention is shorter: else the checks are held. */
    private static final String EXPIRE_AFTER = dev.cryo.scoring.SnapshotExpiry.MAX_SNAPSHOT_AGE_PROPERTY;

    private KafkaScans kafka;

    @BeforeEach
    void connect() {
        kafka = new KafkaScans();
        kafka.awaitConsuming();
    }

    @AfterEach
    void disconnect() {
        kafka.close();
    }

    @Test
    void aScanIsGradedAndItsFirstGradeIsAnnounced() {
        String table = KafkaScans.uniqueTable("first");
        Map<TopicPartition, Long> mark = kafka.mark();
        TableScanned scan = scan(table).dataFiles(1000).smallFiles(300).build();

        EventEnvelope<TableScanned> sent = kafka.send(scan, "operator:alice");

        KafkaScans.Published published = kafka.awaitGraded(mark, table, 1);
        EventEnvelope<?> graded = published.graded().get(0);
        assertThat(graded.id()).isEqualTo(EventIds.derived(sent.id(), "graded"));
        assertThat(graded.correlationId()).isEqualTo(sent.correlationId());
        assertThat(graded.actor()).isEqualTo("operator:alice");
        assertThat(graded.source()).isEqualTo("/cryo/scorer");
        TableGraded tableGraded = (TableGraded) graded.data();
        assertThat(tableGraded.scanId()).isEqualTo(scan.scanId());
        assertThat(tableGraded.score()).isEqualTo(92);
        assertThat(tableGraded.grade()).isEqualTo(Grade.A);
        assertThat(tableGraded.deductions()).extracting(Deduction::explanation)
                .containsExactly("30.0 % of data files are under 128 MiB and could be merged in their partition (limit 20 %)");
        assertThat(published.changes()).hasSize(1);
        EventEnvelope<?> change = published.changes().get(0);
        assertThat(change.id()).isEqualTo(EventIds.derived(sent.id(), "grade-changed"));
        assertThat(change.actor()).isEqualTo("operator:alice");
        assertThat(change.data()).isEqualTo(new GradeChanged(scan.table(), null, null, Grade.A, 92, scan.snapshotId(),
                tableGraded.gradedAt(), List.of(Operation.OPTIMIZE)));
    }

    @Test
    void gradeChangesAreAnnouncedOnlyWhenTheBandMovesAndNeverTwiceForARedeliveredScan() {
        String table = KafkaScans.uniqueTable("bands");
        Map<TopicPartition, Long> mark = kafka.mark();
        Instant start = Instant.now().minusSeconds(60);
        EventEnvelope<TableScanned> first = kafka.send(scan(table).scannedAt(start).build(), "system");
        kafka.send(scan(table).scannedAt(start.plusSeconds(1)).manifests(150, null).build(), "system");   // 92: still A
        kafka.send(scan(table).scannedAt(start.plusSeconds(2)).snapshots(600, start).property(EXPIRE_AFTER, "1000")
                .manifests(600, null).build(), "system");                                                 // 60: C
        kafka.send(first);                                                                                  // redelivery
        kafka.send(scan(table).scannedAt(start.plusSeconds(3)).snapshots(600, start).property(EXPIRE_AFTER, "1000")
                .manifests(600, null).equalityDeletes(10, 10).build(), "system");                         // 52: D

        KafkaScans.Published published = kafka.awaitGraded(mark, table, 4);

        assertThat(published.graded()).extracting(envelope -> ((TableGraded) envelope.data()).score())
                .containsExactly(100, 92, 60, 52);
        assertThat(published.changes()).extracting(envelope -> (GradeChanged) envelope.data())
                .extracting(GradeChanged::previousGrade, GradeChanged::grade)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(null, Grade.A),
                        org.assertj.core.groups.Tuple.tuple(Grade.A, Grade.C),
                        org.assertj.core.groups.Tuple.tuple(Grade.C, Grade.D));
        GradeChanged toD = (GradeChanged) published.changes().get(2).data();
        assertThat(toD.previousScore()).isEqualTo(60);
        assertThat(toD.fixes()).containsExactly(Operation.CONVERT_DELETES, Operation.OPTIMIZE_MANIFESTS,
                Operation.EXPIRE_SNAPSHOTS);
    }

    @Test
    void anOlderScanArrivingLateIsKeptInTheHistoryButDoesNotMoveTheGrade() {
        String table = KafkaScans.uniqueTable("late");
        Map<TopicPartition, Long> mark = kafka.mark();
        Instant now = Instant.now();
        kafka.send(scan(table).scannedAt(now).build(), "system");                                       // A
        kafka.send(scan(table).scannedAt(now.minusSeconds(3600)).snapshots(600, now.minusSeconds(7200))
                .property(EXPIRE_AFTER, "1000").manifests(600, null).build(), "system");                // C, but older
        kafka.send(scan(table).scannedAt(now.plusSeconds(1)).build(), "system");                        // A

        KafkaScans.Published published = kafka.awaitGraded(mark, table, 3);

        assertThat(published.graded()).extracting(envelope -> ((TableGraded) envelope.data()).grade())
                .containsExactly(Grade.A, Grade.C, Grade.A);
        assertThat(published.changes()).hasSize(1);
    }

    @Test
    void tablePropertiesAndPatternsChangeTheOutcome() {
        // 55 % small files: critical by default (limit 50 %), a warning where the limit is 60 %.
        String plain = KafkaScans.uniqueTable("plain");
        String withProperty = KafkaScans.uniqueTable("plain");
        String patterned = KafkaScans.uniqueTable("patterned");
        Map<TopicPartition, Long> mark = kafka.mark();

        kafka.send(scan(plain).dataFiles(1000).smallFiles(550).build(), "system");
        kafka.send(scan(withProperty).dataFiles(1000).smallFiles(550).property("cryo.small-files.critical", "0.6").build(),
                "system");
        kafka.send(scan(patterned).dataFiles(1000).smallFiles(550).build(), "system");

        assertThat(smallFilesSeverity(kafka.awaitGraded(mark, plain, 1))).isEqualTo(Severity.CRITICAL);
        assertThat(smallFilesSeverity(kafka.awaitGraded(mark, withProperty, 1))).isEqualTo(Severity.WARNING);
        assertThat(smallFilesSeverity(kafka.awaitGraded(mark, patterned, 1))).isEqualTo(Severity.WARNING);
    }

    @Test
    void anEventThatIsNotAScanIsDeadLetteredWithTheReason() {
        String table = KafkaScans.uniqueTable("foreign");
        Map<TopicPartition, Long> mark = kafka.mark(Topics.deadLetter("scorer"));
        TableChanged change = new TableChanged(dev.cryo.contracts.TableId.parse(table), ChangeSource.WEBHOOK,
                Instant.now(), 1L, 1L, null, null, null, null, "system");
        EventEnvelope<TableChanged> envelope = EventEnvelope.startChain(change, "/cryo/test", Instant.now());

        kafka.sendRecord(KafkaEnvelopes.toRecord(envelope, Topics.TABLE_SCANNED));

        ConsumerRecord<String, byte[]> dead = kafka.readAfter(mark, table).get(0);
        assertThat(new String(dead.headers().lastHeader("dead-letter-reason").value(), StandardCharsets.UTF_8))
                .isEqualTo("Cannot grade event " + envelope.id() + ": it is a dev.cryo.table.changed.v1, expected "
                        + "dev.cryo.table.scanned.v1");
    }

    private static Severity smallFilesSeverity(KafkaScans.Published published) {
        TableGraded graded = (TableGraded) published.graded().get(0).data();
        return graded.deductions().stream().filter(deduction -> deduction.check() == dev.cryo.contracts.Check.SMALL_FILES)
                .map(Deduction::severity).findFirst().orElseThrow();
    }

    private static ScanBuilder scan(String table) {
        Instant now = Instant.now();
        return healthy().table(table).scannedAt(now).snapshots(20, now.minus(Duration.ofDays(1)));
    }
}
