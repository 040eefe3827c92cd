package dev.cryo.planner.app;

import dev.cryo.contracts.Check;
import dev.cryo.contracts.Grade;
import dev.cryo.contracts.Severity;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.cloudevents.EventEnvelope;
import dev.cryo.contracts.event.CryoEvent;
import dev.cryo.contracts.event.Deduction;
import dev.cryo.contracts.event.FileSizeTerms;
import dev.cryo.contracts.event.MaintenancePlanned;
import dev.cryo.contracts.event.PartitionFieldInfo;
import dev.cryo.contracts.event.PartitionSpecInfo;
import dev.cryo.contracts.event.PartitionStats;
import dev.cryo.contracts.event.TableGraded;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.contracts.event.TableTotals;
import dev.cryo.planner.domain.PlanStatus;
import dev.cryo.planner.persistence.PlanStore;
import dev.cryo.planner.persistence.StoredPlan;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The ordering cases of scans and grades, called directly (no broker) so each order is exact;
 * the storage is the real PostgreSQL.
 */
@QuarkusTest
class PlanningServiceTest {

    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final long MIB = 1024L * 1024;

    @Inject
    PlanningService planning;

    @Inject
    PlanStore store;

    @Test
    void aGradeWaitsForItsScanAndTheScanPlansIt() {
        TableId table = randomTable();
        TableScanned scan = scan(table, T0);
        EventEnvelope<TableGraded> grade = envelope(grade(scan, T0.plusSeconds(1)));

        assertThat(planning.graded(grade)).isEmpty();
        assertThat(store.latestGrade(table)).hasValueSatisfying(stored -> assertThat(stored.waitingForScan()).isTrue());

        EventEnvelope<TableScanned> scanEnvelope = envelope(scan);
        List<EventEnvelope<?>> plans = planning.scanned(scanEnvelope);

        assertThat(plans).singleElement().satisfies(plan -> assertThat(((MaintenancePlanned) plan.data()).scanId()).isEqualTo(scan.scanId()));
        assertThat(store.latestGrade(table)).hasValueSatisfying(stored -> assertThat(stored.waitingForScan()).isFalse());
        // The scan's redelivery does no work again but republishes the same plan.
        assertThat(planning.scanned(scanEnvelope)).isEqualTo(plans);
        assertThat(planning.graded(grade)).isEmpty();
    }

    @Test
    void aGradeOfAScanOlderThanAStoredScanIsSkipped() {
        TableId table = randomTable();
        TableScanned older = scan(table, T0);
        TableScanned newer = scan(table, T0.plusSeconds(60));
        planning.scanned(envelope(older));
        planning.scanned(envelope(newer));

        assertThat(planning.graded(envelope(grade(older, T0.plusSeconds(1))))).isEmpty();
        assertThat(store.latestGrade(table)).isEmpty();

        assertThat(planning.graded(envelope(grade(newer, T0.plusSeconds(61))))).hasSize(1);
    }

    @Test
    void aGradeWhoseScanIsMissingButOlderThanAStoredScanIsSkipped() {
        TableId table = randomTable();
        planning.scanned(envelope(scan(table, T0.plusSeconds(60))));

        TableGraded outdated = grade(scan(table, T0), T0.plusSeconds(1));

        assertThat(planning.graded(envelope(outdated))).isEmpty();
        assertThat(store.latestGrade(table)).isEmpty();
    }

    @Test
    void aWaitingGradeStopsWaitingWhenANewerScanArrives() {
        TableId table = randomTable();
        TableScanned lost = scan(table, T0);
        planning.graded(envelope(grade(lost, T0.plusSeconds(1))));

        assertThat(planning.scanned(envelope(scan(table, T0.plusSeconds(60))))).isEmpty();

        assertThat(store.latestGrade(table)).hasValueSatisfying(stored -> assertThat(stored.waitingForScan()).isFalse());
        // The lost scan arriving late plans nothing: the grade no longer waits for it.
        assertThat(planning.scanned(envelope(lost))).isEmpty();
    }

    @Test
    void eachNewPlanSupersedesThePreviousOne() {
        TableId table = randomTable();
        List<String> planIds = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            TableScanned scan = scan(table, T0.plusSeconds(60L * i));
            planning.scanned(envelope(scan));
            MaintenancePlanned plan = (MaintenancePlanned) planning.graded(envelope(grade(scan, T0.plusSeconds(60L * i + 1)))).get(0).data();
            assertThat(plan.supersedesPlanId()).isEqualTo(i == 0 ? null : planIds.get(i - 1));
            planIds.add(plan.planId());
        }

        List<StoredPlan> history = store.plans(table, 10);
        assertThat(history).extracting(stored -> stored.plan().planId()).containsExactly(planIds.get(2), planIds.get(1),
                planIds.get(0));
        assertThat(history).extracting(StoredPlan::status)
                .containsExactly(PlanStatus.PLANNED, PlanStatus.SUPERSEDED, PlanStatus.SUPERSEDED);
        assertThat(history).extracting(StoredPlan::supersededByPlanId)
                .containsExactly(null, planIds.get(2), planIds.get(1));
    }

    @Test
    void onlyTheNewestScansAreKept() {
        TableId table = randomTable();
        List<TableScanned> scans = new java.util.ArrayList<>();
        for (int i = 0; i < 5; i++) {
            TableScanned scan = scan(table, T0.plusSeconds(i));
            planning.scanned(envelope(scan));
            scans.add(scan);
        }

        assertThat(scans).extracting(scan -> store.findScan(table, scan.scanId()).isPresent())
                .containsExactly(false, false, true, true, true);
    }

    @Test
    void scansAreIdentifiedWithinTheirTableSoAReusedScanIdDoesNotMixTablesUp() {
        TableId first = randomTable();
        TableId second = randomTable();
        TableScanned firstScan = withScanId(scan(first, T0), "scan-1");
        planning.scanned(envelope(firstScan));

        // Another producer's grade of "scan-1" of a different table waits for that table's own scan.
        TableScanned secondScan = withScanId(scan(second, T0), "scan-1");
        assertThat(planning.graded(envelope(grade(secondScan, T0.plusSeconds(1))))).isEmpty();
        assertThat(store.latestGrade(second)).hasValueSatisfying(stored -> assertThat(stored.waitingForScan()).isTrue());

        assertThat(planning.scanned(envelope(secondScan))).singleElement()
                .satisfies(plan -> assertThat(plan.data().table()).isEqualTo(second));
        assertThat(store.findScan(first, "scan-1")).contains(firstScan);
    }

    @Test
    void aScanWhoseTimePostgresqlRoundsUpIsNotNewerThanItself() {
        TableId table = randomTable();
        // 999 ns past a microsecond: PostgreSQL stores the next microsecond, later than the event's time.
        TableScanned scan = scan(table, T0.plusNanos(1_999));
        planning.scanned(envelope(scan));

        List<EventEnvelope<?>> plans = planning.graded(envelope(grade(scan, T0.plusSeconds(1))));

        assertThat(store.newestScan(table)).hasValueSatisfying(stored -> assertThat(stored.scanId()).isEqualTo(scan.scanId()));
        assertThat(plans).singleElement().satisfies(plan -> assertThat(((MaintenancePlanned) plan.data()).scanId()).isEqualTo(scan.scanId()));
    }

    @Test
    void aGradeAndItsScanArrivingTogetherOnANewTablePlanItOnce() throws Exception {
        for (int round = 0; round < 10; round++) {
            TableId table = randomTable();
            TableScanned scan = scan(table, T0);
            EventEnvelope<TableGraded> grade = envelope(grade(scan, T0.plusSeconds(1)));
            EventEnvelope<TableScanned> scanned = envelope(scan);
            ExecutorService threads = Executors.newFixedThreadPool(2);
            try {
                // both consumers lock the table first; on a new table both would insert its row
                Future<List<EventEnvelope<?>>> fromGrade = threads.submit(() -> planning.graded(grade));
                Future<List<EventEnvelope<?>>> fromScan = threads.submit(() -> planning.scanned(scanned));
                List<EventEnvelope<?>> plans = new ArrayList<>(fromGrade.get());
                plans.addAll(fromScan.get());

                assertThat(plans).as("round %d", round).singleElement()
                        .satisfies(plan -> assertThat(((MaintenancePlanned) plan.data()).scanId()).isEqualTo(scan.scanId()));
                assertThat(store.latestGrade(table)).hasValueSatisfying(stored -> assertThat(stored.waitingForScan()).isFalse());
                assertThat(store.plans(table, 10)).hasSize(1);
            } finally {
                threads.shutdownNow();
            }
        }
    }

    private static TableScanned withScanId(TableScanned scan, String scanId) {
        return new TableScanned(scan.table(), scanId, scan.scannedAt(), scan.scanDuration(), scan.formatVersion(),
                scan.snapshotId(), scan.sequenceNumber(), scan.snapshotCommittedAt(), scan.location(), scan.fileSizes(),
                scan.totals(), scan.specs(), scan.partitions(), scan.snapshots(), scan.manifests(), scan.statistics(),
                scan.orphans(), scan.properties(), scan.counters());
    }

    static TableId randomTable() {
        return TableId.parse("lake.planner_service_test.t_" + UUID.randomUUID().toString().substring(0, 8));
    }

    static <T extends CryoEvent> EventEnvelope<T> envelope(T event) {
        return EventEnvelope.startChain(event, "/cryo/planner-test", T0);
    }

    static TableScanned scan(TableId table, Instant scannedAt) {
        PartitionSpecInfo byRegion = new PartitionSpecInfo(0,
                List.of(new PartitionFieldInfo("region", "region", 1, "string", "identity")));
        PartitionStats hot = new PartitionStats(0, List.of("eu"), 20, 200 * MIB, 2000, 20, 200 * MIB, 0, List.of(),
                0, 0, 0, 0);
        return new TableScanned(table, "scan-" + UUID.randomUUID(), scannedAt, Duration.ofMillis(5), 2, 1L, 1L, scannedAt,
                "file:///tmp/t", FileSizeTerms.forTarget(512 * MIB), TableTotals.EMPTY, List.of(byRegion), List.of(hot),
                null, null, null, null, null, null);
    }

    static TableGraded grade(TableScanned scan, Instant gradedAt) {
        Deduction small = new Deduction(Check.SMALL_FILES, Severity.CRITICAL, 20, 0.6, 0.5, "share",
                Check.SMALL_FILES.fixedBy(), "60 % of data files are small (limit 50 %)");
        return new TableGraded(scan.table(), scan.scanId(), scan.snapshotId(), gradedAt, 80, Grade.B, 1.0,
                List.of(small), List.of());
    }
}
