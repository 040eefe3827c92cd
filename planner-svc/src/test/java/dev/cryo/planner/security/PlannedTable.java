package dev.cryo.planner.security;

import dev.cryo.contracts.Check;
import dev.cryo.contracts.Grade;
import dev.cryo.contracts.Severity;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.Deduction;
import dev.cryo.contracts.event.FileSizeTerms;
import dev.cryo.contracts.event.TableGraded;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.contracts.kafka.KafkaEnvelopes;
import dev.cryo.platform.messaging.EventIds;
import dev.cryo.testsupport.KafkaTestClient;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;

/**
 * A table of its own with a scan and a grade that call for one whole-table operation (too many
 * snapshots): sent, they give a plan with a known id. The grade is stamped an hour ahead, as in
 * PlannerFlowTest, so a scorer grading the same scan meanwhile never makes it outdated. The scan's
 * location climbs out of any warehouse: the planner plans from statistics and never opens it.
 */
record PlannedTable(TableId table, EventEnvelope<TableScanned> scan, EventEnvelope<TableGraded> grade) {

    static PlannedTable create(String prefix) {
        TableId table = TableId.parse("lake.planner_test." + prefix + "_" + UUID.randomUUID().toString().substring(0, 8));
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        TableScanned scanned = new TableScanned(table, "scan-" + UUID.randomUUID(), now, Duration.ofMillis(20), 2, 1L, 1L, now,
                "file:///warehouse/../../../../etc/passwd", FileSizeTerms.forTarget(512L * 1024 * 1024),
                dev.cryo.contracts.event.TableTotals.EMPTY, List.of(), List.of(), null, null, null, null, null, null);
        Deduction snapshots = new Deduction(Check.SNAPSHOT_COUNT, Severity.CRITICAL, Severity.CRITICAL.points(), 1, 1, "count",
                Check.SNAPSHOT_COUNT.fixedBy(), "too many snapshots");
        int score = 100 - snapshots.points();
        TableGraded graded = new TableGraded(table, scanned.scanId(), 1L, now.plus(Duration.ofHours(1)), score,
                Grade.of(score), 1.0, List.of(snapshots), List.of());
        EventEnvelope<TableScanned> scan = EventEnvelope.startChain(scanned, "/cryo/scanner", now);
        return new PlannedTable(table, scan, EventEnvelope.follow(graded, "/cryo/scorer", now.plusSeconds(1), scan.correlationId()));
    }

    /** The id of the plan the grade leads to. */
    String planId() {
        return EventIds.derived(grade.id(), "plan");
    }

    void send(KafkaTestClient kafka) {
        kafka.send(KafkaEnvelopes.toRecord(scan));
        kafka.send(KafkaEnvelopes.toRecord(grade));
    }
}
