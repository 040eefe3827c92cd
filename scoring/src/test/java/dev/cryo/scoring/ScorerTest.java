package dev.cryo.scoring;

import dev.cryo.contracts.Check;
import dev.cryo.contracts.Grade;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.Severity;
import dev.cryo.contracts.event.Deduction;
import dev.cryo.contracts.event.HeldFinding;
import dev.cryo.contracts.event.NotEvaluated;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.scoring.fixtures.ScanBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;

import static dev.cryo.scoring.fixtures.ScanBuilder.GIB;
import static dev.cryo.scoring.fixtures.ScanBuilder.MIB;
import static dev.cryo.scoring.fixtures.ScanBuilder.NOW;
import static dev.cryo.scoring.fixtures.ScanBuilder.healthy;
import static dev.cryo.scoring.CheckLimitsTest.deductionOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

class ScorerTest {

    /** Limits are checked here, not what expiry can reach: every snapshot may go. */
    static final SnapshotExpiry EVERY_SNAPSHOT_EXPIRABLE = SnapshotExpiry.defaults(java.time.Duration.ZERO, 1);

    @Test
    void aHealthyTableKeepsAllItsPoints() {
        Grading grading = grade(healthy().build());

        assertThat(grading.score()).isEqualTo(100);
        assertThat(grading.grade()).isEqualTo(Grade.A);
        assertThat(grading.deductions()).isEmpty();
        assertThat(grading.fixes()).isEmpty();
    }

    @ParameterizedTest(name = "{0} GiB: s = {1}, file-count warns at {2} and is critical at {3}")
    @CsvSource({
            "50, 1.0, 10000, 50000",
            "100, 1.0, 10000, 50000",
            "400, 2.0, 20000, 100000"})
    void countLimitsScaleWithTheSquareRootOfTableSize(long gib, double scale, long warning, long critical) {
        assertThat(Scorer.sizeScale(gib * GIB)).isEqualTo(scale);

        assertThat(severityOfFileCount(gib, warning - 1)).isNull();
        assertThat(severityOfFileCount(gib, warning)).isEqualTo(Severity.WARNING);
        assertThat(severityOfFileCount(gib, critical - 1)).isEqualTo(Severity.WARNING);
        assertThat(severityOfFileCount(gib, critical)).isEqualTo(Severity.CRITICAL);
        Deduction deduction = deductionOf(Check.FILE_COUNT, healthy().dataBytes(gib * GIB).dataFiles(critical).build(),
                TablePolicy.defaults()).orElseThrow();
        assertThat(deduction.limit()).isEqualTo(critical);
        assertThat(grade(healthy().dataBytes(gib * GIB).build()).sizeScale()).isEqualTo(scale);
    }

    @Test
    void everyCountLimitScalesAt400GibButSharesRatiosAndAgesDoNot() {
        TableScanned big = healthy().dataBytes(400 * GIB).dataFiles(1000).smallFiles(200).records(1000)
                .positionDeletes(200, 100).equalityDeletes(20, 0).snapshots(200, NOW.minus(Duration.ofDays(8)))
                .manifests(200, null).rowsChangedSinceStatistics(10L).build();

        Grading grading = grade(big);

        assertThat(grading.deductions())
                .extracting(Deduction::check, Deduction::limit)
                .containsExactlyInAnyOrder(
                        tuple(Check.SMALL_FILES, 0.2),
                        tuple(Check.DELETE_RATIO, 0.1),
                        tuple(Check.EQUALITY_DELETES, 20.0),
                        tuple(Check.POSITION_DELETES, 200.0),
                        tuple(Check.SNAPSHOT_COUNT, 200.0),
                        tuple(Check.SNAPSHOT_AGE, 8 * 86_400.0),
                        tuple(Check.MANIFEST_COUNT, 200.0));
        assertThat(grading.deductions()).allSatisfy(deduction -> assertThat(deduction.severity()).isEqualTo(Severity.WARNING));
    }

    @Test
    void scaledCountLimitsRoundUpToWholeCounts() {
        // 150 GiB: s = sqrt(1.5) = 1.2247..., so snapshot-count warns from ceil(122.47) = 123 snapshots
        TableScanned at122 = healthy().dataBytes(150 * GIB).snapshots(122, NOW.minus(Duration.ofDays(1))).build();
        TableScanned at123 = healthy().dataBytes(150 * GIB).snapshots(123, NOW.minus(Duration.ofDays(1))).build();

        assertThat(deductionOf(Check.SNAPSHOT_COUNT, at122, TablePolicy.defaults())).isEmpty();
        assertThat(deductionOf(Check.SNAPSHOT_COUNT, at123, TablePolicy.defaults()).orElseThrow().limit()).isEqualTo(123.0);
    }

    @Test
    void checksWithoutDataAreNotEvaluatedNeverPassedOrFailed() {
        TableScanned empty = healthy().dataFiles(0).dataBytes(0).records(0).partitions(0)
                .snapshots(0, null).manifests(0, null).noStatistics().orphanBytes(null).build();

        Grading grading = grade(empty);

        assertThat(grading.deductions()).isEmpty();
        assertThat(grading.score()).isEqualTo(100);
        assertThat(grading.notEvaluated()).extracting(NotEvaluated::check, NotEvaluated::reason).containsExactly(
                tuple(Check.SMALL_FILES, "the current snapshot has no data files"),
                tuple(Check.OVERSIZED_FILES, "the current snapshot has no data files"),
                tuple(Check.PARTITION_SKEW, "fewer than 4 partitions"),
                tuple(Check.DELETE_RATIO, "the table has no data rows"),
                tuple(Check.SNAPSHOT_AGE, "the table has no snapshot"),
                tuple(Check.MANIFEST_CLUSTERING, "the scan did not measure manifest partition bounds (unpartitioned table?)"),
                tuple(Check.MISSING_STATISTICS, "the table holds 0 B; statistics are expected from 1 GiB"),
                tuple(Check.STALE_STATISTICS, "no statistics file yet (see missing-statistics)"),
                tuple(Check.ORPHAN_FILES, "no storage listing of the table location yet"));
    }

    @Test
    void populationMinimumsLeaveChecksNotEvaluated() {
        TableScanned scan = healthy().dataFiles(100).smallFiles(7).partitions(3)
                .manifests(15, 0.9).rowsChangedSinceStatistics(null).build();

        Grading grading = grade(scan);

        assertThat(grading.notEvaluated()).extracting(NotEvaluated::check, NotEvaluated::reason).containsExactly(
                tuple(Check.SMALL_FILES, "only 7 small files that compaction can merge; the check starts at 8"),
                tuple(Check.PARTITION_SKEW, "fewer than 4 partitions"),
                tuple(Check.MANIFEST_CLUSTERING, "only 15 manifests; the check starts at 16"),
                tuple(Check.STALE_STATISTICS,
                        "snapshot summaries do not say how many rows changed since the newest statistics"));
        TableScanned fewPartitions = healthy().partitions(15).manifests(16, 0.9).build();
        assertThat(grade(fewPartitions).notEvaluated()).extracting(NotEvaluated::reason)
                .contains("only 15 partitions; the check starts at 16");
    }

    @Test
    void aPartitionsLoneSmallFileIsAsCompactAsItGetsAndCostsNoPoints() {
        // 3 000 rows in 6 day partitions, compacted to one 10 KiB file each: nothing left to merge.
        TableScanned compacted = healthy().dataBytes(60 * 1024).dataFiles(6).smallFiles(6).partitions(6).build();
        Grading grading = grade(compacted);
        assertThat(grading.deductions()).extracting(Deduction::check).doesNotContain(Check.SMALL_FILES);
        assertThat(grading.notEvaluated()).extracting(NotEvaluated::check, NotEvaluated::reason).contains(
                tuple(Check.SMALL_FILES, "only 0 small files that compaction can merge (6 in all; a partition's lone small"
                        + " file is as compact as it gets); the check starts at 8"));

        // Worked by hand: 10 partitions of one small file, one partition of 9 small files and 1 large one:
        // mergeable 9 of 20 data files = 45 %, over the 20 % warning, under the 50 % critical.
        TableScanned oneBadPartition = healthy().dataFiles(20).smallFiles(19)
                .partitionFiles(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 10).smallFilesPerPartition(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 9)
                .build();
        Deduction small = deductionOf(Check.SMALL_FILES, oneBadPartition, TablePolicy.defaults()).orElseThrow();
        assertThat(small.severity()).isEqualTo(Severity.WARNING);
        assertThat(small.measured()).isEqualTo(0.45);
    }

    @Test
    void snapshotFindingsThatNoExpiryCanWinBackAreHeldByTheSettingAndCostNothing() {
        // 187 snapshots, the oldest 3 days old: under the planner's 7-day retention expire_snapshots removes none.
        TableScanned young = healthy().snapshots(187, NOW.minus(Duration.ofDays(3))).build();
        Grading held = Scorer.grade(young, TablePolicy.defaults(), Scorer.DEFAULT_EXPIRY, NOW);
        assertThat(held.deductions()).isEmpty();
        assertThat(held.score()).isEqualTo(100);
        assertThat(held.held()).singleElement().satisfies(finding -> {
            assertThat(finding.check()).isEqualTo(Check.SNAPSHOT_COUNT);
            assertThat(finding.severity()).isEqualTo(Severity.WARNING);
            assertThat(finding.measured()).isEqualTo(187);
            assertThat(finding.operation()).isEqualTo(Operation.EXPIRE_SNAPSHOTS);
            assertThat(finding.heldBy()).isEqualTo("cryo.scorer.expiry.retention (the planner's"
                    + " cryo.planner.snapshot-retention) = 7 days");
            assertThat(finding.explanation()).isEqualTo("187 snapshots in table metadata (limit 100); all 187 snapshots are"
                    + " younger than the retention of 7 days (cryo.scorer.expiry.retention (the planner's"
                    + " cryo.planner.snapshot-retention)): expire_snapshots would remove none; lower the retention to let it");
        });

        // The table keeps 30 days itself: a 10-day-old snapshot is over snapshot-age's 7-day warning, but held too.
        TableScanned keepsAMonth = healthy().snapshots(150, NOW.minus(Duration.ofDays(10)))
                .property("history.expire.max-snapshot-age-ms", String.valueOf(Duration.ofDays(30).toMillis())).build();
        Grading month = Scorer.grade(keepsAMonth, TablePolicy.defaults(), Scorer.DEFAULT_EXPIRY, NOW);
        assertThat(month.deductions()).isEmpty();
        assertThat(month.held()).extracting(HeldFinding::check, HeldFinding::heldBy).containsExactly(
                tuple(Check.SNAPSHOT_COUNT, "the table's history.expire.max-snapshot-age-ms = 30 days"),
                tuple(Check.SNAPSHOT_AGE, "the table's history.expire.max-snapshot-age-ms = 30 days"));

        // Keep-last wins when it covers every snapshot, whatever their age.
        TableScanned keepsAll = healthy().snapshots(150, NOW.minus(Duration.ofDays(40)))
                .property("history.expire.min-snapshots-to-keep", "200").build();
        assertThat(Scorer.grade(keepsAll, TablePolicy.defaults(), Scorer.DEFAULT_EXPIRY, NOW).held())
                .extracting(HeldFinding::heldBy).containsOnly("the table's history.expire.min-snapshots-to-keep = 200");

        // 187 snapshots over 9 days: about 145 are younger than 7 days, still over the limit of 100; only the
        // age can be won back (9 days, over the 8-day warning, would become 7).
        TableScanned partly = healthy().snapshots(187, NOW.minus(Duration.ofDays(9))).build();
        Grading part = Scorer.grade(partly, TablePolicy.defaults(), Scorer.DEFAULT_EXPIRY, NOW);
        assertThat(part.deductions()).extracting(Deduction::check).containsExactly(Check.SNAPSHOT_AGE);
        assertThat(part.held()).singleElement().satisfies(finding -> assertThat(finding.explanation()).endsWith(
                "expire_snapshots would keep about 145 of 187 snapshots, those younger than the retention of 7 days"
                        + " (cryo.scorer.expiry.retention (the planner's cryo.planner.snapshot-retention)), still over the"
                        + " limit; lower the retention to let it"));

        // A retention of 20 days keeps snapshots 20 days old: the 8-day warning of a 25-day-old table stays.
        TableScanned keepsTwentyDays = healthy().snapshots(90, NOW.minus(Duration.ofDays(25)))
                .property("history.expire.max-snapshot-age-ms", String.valueOf(Duration.ofDays(20).toMillis())).build();
        assertThat(Scorer.grade(keepsTwentyDays, TablePolicy.defaults(), Scorer.DEFAULT_EXPIRY, NOW).held())
                .singleElement().satisfies(finding -> {
                    assertThat(finding.check()).isEqualTo(Check.SNAPSHOT_AGE);
                    assertThat(finding.explanation()).endsWith("expire_snapshots keeps snapshots up to the retention of"
                            + " 20 days (the table's history.expire.max-snapshot-age-ms) old, which is still over the limit;"
                            + " lower the retention or raise the limit");
                });

        // Spread over 30 days: about 44 are younger than 7 days, both findings are on the to-do list.
        TableScanned old = healthy().snapshots(187, NOW.minus(Duration.ofDays(30))).build();
        Grading todo = Scorer.grade(old, TablePolicy.defaults(), Scorer.DEFAULT_EXPIRY, NOW);
        assertThat(todo.held()).isEmpty();
        assertThat(todo.deductions()).extracting(Deduction::check).containsExactly(Check.SNAPSHOT_AGE, Check.SNAPSHOT_COUNT);
    }

    @Test
    void theScoreNeverGoesBelowZero() {
        long[] skewed = new long[64];
        java.util.Arrays.fill(skewed, 200);
        skewed[63] = 47_400;   // 60 000 files, the largest partition 50.6× the mean
        TableScanned everythingWrong = healthy().dataBytes(2 * GIB).dataFiles(60_000).smallFiles(40_000)
                .oversizedFiles(30_000).partitionFiles(skewed).records(1000).positionDeletes(600, 300)
                .equalityDeletes(100, 0).snapshots(600, NOW.minus(Duration.ofDays(40))).manifests(600, 0.9)
                .noStatistics().orphanBytes(GIB).build();

        Grading grading = grade(everythingWrong);

        assertThat(grading.deductions()).hasSize(13);
        assertThat(grading.deductions().stream().mapToInt(Deduction::points).sum()).isEqualTo(12 * 20 + 8);
        assertThat(grading.score()).isZero();
        assertThat(grading.grade()).isEqualTo(Grade.F);
    }

    @ParameterizedTest(name = "{0} warnings and {1} criticals: score {2}, grade {3}")
    @CsvSource({
            "0, 0, 100, A",
            "1, 0, 92, A",   // just above 90
            "2, 0, 84, B",   // just below 90
            "3, 0, 76, B",   // just above 75
            "1, 1, 72, C",   // just below 75
            "0, 2, 60, C",   // at 60
            "1, 2, 52, D",   // just below 60
            "0, 3, 40, D",   // at 40
            "1, 3, 32, F"})  // just below 40
    void pointsAddUpToTheGradeBands(int warnings, int criticals, int score, Grade grade) {
        // Warnings from counts just over their warning limits, criticals from counts over their critical limits.
        ScanBuilder scan = healthy();
        Check[] order = {Check.EQUALITY_DELETES, Check.POSITION_DELETES, Check.SNAPSHOT_COUNT, Check.MANIFEST_COUNT};
        for (int i = 0; i < warnings + criticals; i++) {
            boolean critical = i < criticals;
            switch (order[i]) {
                case EQUALITY_DELETES -> scan.equalityDeletes(critical ? 100 : 10, 0);
                case POSITION_DELETES -> scan.positionDeletes(critical ? 500 : 100, 0);
                case SNAPSHOT_COUNT -> scan.snapshots(critical ? 500 : 100, NOW.minus(Duration.ofDays(1)));
                default -> scan.manifests(critical ? 500 : 100, null);
            }
        }

        Grading grading = grade(scan.build());

        assertThat(grading.score()).isEqualTo(score);
        assertThat(grading.grade()).isEqualTo(grade);
    }

    @ParameterizedTest(name = "score {0} is grade {1}")
    @CsvSource({"90, A", "89, B", "75, B", "74, C", "60, C", "59, D", "40, D", "39, F", "0, F"})
    void gradeBoundariesAreInclusiveFromBelow(int score, Grade grade) {
        assertThat(new Grading(score, grade, 1, java.util.List.of(), java.util.List.of(), java.util.List.of()).grade()).isEqualTo(grade);
        assertThatThrownBy(() -> new Grading(score, grade == Grade.A ? Grade.B : Grade.A, 1, java.util.List.of(), java.util.List.of(),
                java.util.List.of()))
                .hasMessageContaining("does not match score " + score);
    }

    @Test
    void deductionsComeWorstFirstAndFixesInTheFixedOrder() {
        TableScanned scan = healthy().manifests(150, null).snapshots(600, NOW.minus(Duration.ofDays(1)))
                .dataFiles(1000).smallFiles(300).build();

        Grading grading = grade(scan);

        assertThat(grading.deductions()).extracting(Deduction::check, Deduction::severity).containsExactly(
                tuple(Check.SNAPSHOT_COUNT, Severity.CRITICAL),
                tuple(Check.SMALL_FILES, Severity.WARNING),
                tuple(Check.MANIFEST_COUNT, Severity.WARNING));
        assertThat(grading.fixes()).containsExactly(Operation.OPTIMIZE, Operation.OPTIMIZE_MANIFESTS,
                Operation.EXPIRE_SNAPSHOTS);
    }

    @Test
    void deductionsCarryMeasuredValueLimitUnitAndAHumanExplanation() {
        TableScanned scan = healthy().dataBytes(800 * GIB).dataFiles(1000).smallFiles(623).oversizedFiles(250)
                .records(10_000).positionDeletes(3, 3100)
                .snapshots(20, NOW.minus(Duration.ofDays(58)).minusSeconds(3600)).manifests(40, 0.62)
                .partitions(40).rowsChangedSinceStatistics(3_500L).orphanBytes(3 * GIB / 2).build();
        TableScanned skewed = healthy().dataFiles(288).partitionFiles(skewedPartitions()).build();

        assertThat(explanation(Check.SMALL_FILES, scan)).isEqualTo("62.3 % of data files are under 128 MiB and could be merged in their partition (limit 50 %)");
        assertThat(explanation(Check.OVERSIZED_FILES, scan)).isEqualTo("25.0 % of data files are over 1 GiB (limit 20 %)");
        assertThat(explanation(Check.DELETE_RATIO, scan)).isEqualTo("deleted rows are 0.31 of data rows (3,100 of 10,000, limit 0.25)");
        assertThat(explanation(Check.SNAPSHOT_AGE, scan)).isEqualTo("the oldest snapshot is 58 days old (limit 30 days)");
        assertThat(explanation(Check.MANIFEST_CLUSTERING, scan))
                .isEqualTo("a manifest's partition bounds span 62.0 % of the partitions on average (limit 50 %)");
        assertThat(explanation(Check.STALE_STATISTICS, scan)).isEqualTo("rows changed since the newest statistics are 0.35 of the rows now (limit 0.20)");
        assertThat(explanation(Check.ORPHAN_FILES, scan))
                .isEqualTo("1.5 GiB of orphan files under the table location, 0.2 % of table bytes (limit 1 GiB)");
        assertThat(explanation(Check.PARTITION_SKEW, skewed))
                .isEqualTo("the partition with the most data files holds 50.0× the mean per partition (limit 50×)");
        Deduction smallFiles = deductionOf(Check.SMALL_FILES, scan, TablePolicy.defaults()).orElseThrow();
        assertThat(smallFiles.measured()).isEqualTo(0.623);
        assertThat(smallFiles.limit()).isEqualTo(0.5);
        assertThat(smallFiles.unit()).isEqualTo("share");
        Deduction orphans = deductionOf(Check.ORPHAN_FILES, scan, TablePolicy.defaults()).orElseThrow();
        assertThat(orphans.unit()).isEqualTo("bytes");
        assertThat(orphans.limit()).isEqualTo(GIB);
        assertThat(deductionOf(Check.SNAPSHOT_AGE, scan, TablePolicy.defaults()).orElseThrow().unit()).isEqualTo("seconds");
        assertThat(deductionOf(Check.DELETE_RATIO, scan, TablePolicy.defaults()).orElseThrow().unit()).isEqualTo("ratio");
        assertThat(smallFiles.explanation()).doesNotContain(String.valueOf(MIB));
    }

    @Test
    void aDisabledCheckIsNotEvaluatedAndSaysWhoDisabledIt() {
        TableScanned scan = healthy().snapshots(900, NOW.minus(Duration.ofDays(1)))
                .property("cryo.snapshot-count.enabled", "false").build();
        TablePolicy policy = PolicyBook.defaults().effectiveFor(scan.table(), scan.properties());

        Grading grading = Scorer.grade(scan, policy, EVERY_SNAPSHOT_EXPIRABLE, NOW);

        assertThat(grading.deductions()).isEmpty();
        assertThat(grading.notEvaluated()).contains(
                new NotEvaluated(Check.SNAPSHOT_COUNT, "disabled by cryo.snapshot-count.enabled"));
    }

    /** 63 partitions of one data file and one of 225: the largest holds 50× the mean. */
    private static long[] skewedPartitions() {
        long[] files = new long[64];
        java.util.Arrays.fill(files, 1);
        files[63] = 225;
        return files;
    }

    private static Severity severityOfFileCount(long gib, long files) {
        return deductionOf(Check.FILE_COUNT, healthy().dataBytes(gib * GIB).dataFiles(files).build(), TablePolicy.defaults())
                .map(Deduction::severity).orElse(null);
    }

    private static String explanation(Check check, TableScanned scan) {
        return deductionOf(check, scan, TablePolicy.defaults()).orElseThrow().explanation();
    }

    private static Grading grade(TableScanned scan) {
        return Scorer.grade(scan, TablePolicy.defaults(), EVERY_SNAPSHOT_EXPIRABLE, NOW);
    }
}
