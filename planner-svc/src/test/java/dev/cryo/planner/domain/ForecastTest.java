package dev.cryo.planner.domain;

import dev.cryo.contracts.Operation;
import dev.cryo.contracts.event.PartitionStats;
import dev.cryo.contracts.event.TableGraded;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.contracts.event.TableTotals;
import dev.cryo.scoring.Grading;
import dev.cryo.scoring.Scorer;
import dev.cryo.scoring.TablePolicy;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static dev.cryo.scoring.fixtures.ScanBuilder.GIB;
import static dev.cryo.scoring.fixtures.ScanBuilder.MIB;
import static dev.cryo.scoring.fixtures.ScanBuilder.NOW;
import static dev.cryo.scoring.fixtures.ScanBuilder.healthy;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The plan's expected score is the scorer's grade of the table the plan predicts; each case below
 * is worked out by hand from the scan, the native engine's behaviour and SCORING.md's limits.
 */
class ForecastTest {

    /** Grades a scan as the scorer does and plans it as an operator's fix does. */
    private static Planning plan(TableScanned scan) {
        Grading grading = Scorer.grade(scan, TablePolicy.defaults(), Scorer.DEFAULT_EXPIRY, NOW);
        TableGraded graded = new TableGraded(scan.table(), scan.scanId(), scan.snapshotId(), NOW, grading.score(),
                grading.grade(), grading.sizeScale(), grading.deductions(), grading.notEvaluated(), grading.held(),
                TablePolicy.defaults().limits());
        return Planner.plan(graded, scan, PlanningPolicy.DEFAULTS, Trigger.OPERATOR_REQUEST);
    }

    @Test
    void compactionThatMergesEveryPartitionsSmallFilesPromisesTheirPointsBack() {
        // 10 partitions of 20 files, 10 of them 16 MiB: 100 of 200 files small and mergeable, 50 % → critical, 80 B.
        // optimize packs each partition's 160 MiB into one file of 160 MiB, over the 128 MiB small-file threshold:
        // 11 files per partition, none small. One chunk, so one commit: 21 snapshots, 11 manifests. 100.
        TableScanned scan = healthy().smallFiles(100).build();

        Planning planning = plan(scan);

        assertThat(planning.score()).isEqualTo(80);
        assertThat(planning.operations()).extracting(operation -> operation.operation()).containsExactly(Operation.OPTIMIZE);
        assertThat(planning.expectedScore()).isEqualTo(100);
        assertThat(planning.notes()).contains("expected after the plan: A 100 (the scorer's rules and limits on the table"
                + " the plan predicts)");
    }

    @Test
    void aPartitionsLoneSmallRemainderIsNotCountedAgainstThePromise() {
        // 10 partitions with 5 small files of 16 MiB each: 50 of 200 small, 25 % → warning, 92 A (so: an operator's fix).
        // Each partition's 80 MiB becomes one file of 80 MiB, small but alone: nothing left to merge. 100.
        TableScanned scan = healthy().smallFiles(50).smallFilesPerPartition(5, 5, 5, 5, 5, 5, 5, 5, 5, 5).build();
        Planning planning = plan(scan);

        TableScanned predicted = Forecast.after(scan, planning.operations(), Map.of(Operation.OPTIMIZE,
                scan.partitions()), Scorer.DEFAULT_EXPIRY, NOW);

        assertThat(planning.score()).isEqualTo(92);
        assertThat(predicted.totals().dataFiles()).isEqualTo(10 * (15 + 1));
        assertThat(predicted.totals().smallFiles()).isEqualTo(10);
        assertThat(predicted.partitions()).allSatisfy(partition -> assertThat(partition.smallFileBytes()).isEqualTo(80 * MIB));
        assertThat(planning.expectedScore()).isEqualTo(100);
    }

    @Test
    void anExpiryOfMostSnapshotsPromisesWhatTheRetentionLeaves() {
        // 600 snapshots over 30 days, the newest now: count 600 (critical, limit 500), age 30 days (critical) → 60 C.
        // Under 7 days of retention about 1 + 599 × 7/30 = 140 stay, the oldest 30 d × 139/599 ≈ 7.0 days old:
        // snapshot-age clears (warning at 8 days), snapshot-count 140 is a warning an expiry could not win back
        // (every one of them is younger than the retention): held, no points. 100.
        TableScanned scan = healthy().snapshots(600, NOW.minus(Duration.ofDays(30))).build();

        Planning planning = plan(scan);

        assertThat(planning.score()).isEqualTo(60);
        assertThat(planning.operations()).extracting(operation -> operation.operation())
                .containsExactly(Operation.EXPIRE_SNAPSHOTS);
        TableScanned predicted = Forecast.after(scan, planning.operations(), Map.of(),
                Scorer.DEFAULT_EXPIRY, NOW);
        assertThat(predicted.snapshots().count()).isEqualTo(140);
        assertThat(Duration.between(predicted.snapshots().oldestAt(), NOW).toHours()).isEqualTo(167);
        assertThat(planning.expectedScore()).isEqualTo(100);
    }

    @Test
    void whatNoExpiryCanReachIsHeldAndTheRestIsPromised() {
        // 450 GiB (s = 2.12: count limits 213 and 1 061). 2 000 snapshots over 10 days: 7 days of retention keep about
        // 1 + 1 999 × 7/10 = 1 400, still over 1 061, so snapshot-count is held; snapshot-age (10 days, warning) is
        // deducted: the expiry brings it to 7. 600 manifests of 8 KiB: a warning (213), packed into one manifest.
        // 100 − 8 − 8 = 84 B; expected: 1 401 snapshots all younger than the retention (held), the age and the
        // manifests cleared: 100.
        TableScanned scan = healthy().dataBytes(450 * GIB).snapshots(2000, NOW.minus(Duration.ofDays(10)))
                .manifests(600, null).build();

        Planning planning = plan(scan);

        assertThat(planning.score()).isEqualTo(84);
        assertThat(planning.operations()).extracting(operation -> operation.operation())
                .containsExactly(Operation.OPTIMIZE_MANIFESTS, Operation.EXPIRE_SNAPSHOTS);
        assertThat(planning.notes()).anySatisfy(note -> assertThat(note).startsWith("snapshot-count is held by policy"));
        assertThat(planning.expectedScore()).isEqualTo(100);
    }

    @Test
    void rewritingDeletesClearsThemAndTheRowsTheyRemoved() {
        // One partition of 200 files of 256 MiB with 150 position delete files over 1 000 000 of its 10 000 000 rows:
        // position-deletes 150 (warning, limit 100) and delete-ratio 0.10 (warning) → 84 B. rewrite_position_deletes
        // rewrites the files they apply to with the deletes applied: no delete file, 9 000 000 rows. The optimize
        // planned for the delete ratio then finds neither deletes nor small files: the 200 files stay. 100.
        TableScanned healthy = healthy().partitions(1).records(10_000_000).build();
        PartitionStats only = healthy.partitions().get(0);
        PartitionStats withDeletes = new PartitionStats(only.specId(), only.values(), only.dataFiles(), only.dataBytes(),
                only.records(), 0, 0, 0, List.of(), 150, 1_000_000, 0, 0);
        TableTotals totals = healthy.totals();
        TableScanned scan = healthy.withStatistics(new TableTotals(1, totals.dataFiles(), totals.dataBytes(),
                        totals.records(), 0, 0, 0, 150, 1_000_000, 0, 0), List.of(withDeletes),
                healthy.snapshots(), healthy.manifests(), healthy.statistics(), healthy.orphans());

        Planning planning = plan(scan);
        TableScanned predicted = Forecast.after(scan, planning.operations(), Map.of(Operation.OPTIMIZE,
                List.of(withDeletes), Operation.REWRITE_POSITION_DELETES, List.of(withDeletes)), Scorer.DEFAULT_EXPIRY, NOW);

        assertThat(planning.score()).isEqualTo(84);
        assertThat(planning.operations()).extracting(operation -> operation.operation())
                .containsExactly(Operation.REWRITE_POSITION_DELETES, Operation.OPTIMIZE);
        assertThat(predicted.totals().positionDeleteFiles()).isZero();
        assertThat(predicted.totals().records()).isEqualTo(9_000_000);
        assertThat(predicted.totals().dataFiles()).isEqualTo(200);
        assertThat(planning.expectedScore()).isEqualTo(100);
        assertThat(planning.notes()).noneMatch(note -> note.contains("expected to remain"));
    }

    @Test
    void filesStatisticsAndOrphansArePromisedTogether() {
        // small-files 50 % (critical), statistics stale by 60 000 000 of 100 000 000 rows (0.6, critical) and 2 GiB of
        // orphans older than the 3-day floor (warning from 1 GiB): 100 − 20 − 20 − 8 = 52 D. optimize clears the small
        // files, compute_statistics describes the snapshot it leaves, remove_orphan_files with the same 3-day floor
        // removes every orphan the listing counted: 100.
        TableScanned scan = healthy().smallFiles(100).rowsChangedSinceStatistics(60_000_000L).orphanBytes(2 * GIB).build();

        Planning planning = plan(scan);

        assertThat(planning.operations()).extracting(operation -> operation.operation()).containsExactly(
                Operation.OPTIMIZE, Operation.COMPUTE_STATISTICS, Operation.REMOVE_ORPHAN_FILES);
        assertThat(planning.score()).isEqualTo(100 - 20 - 20 - 8);
        assertThat(planning.expectedScore()).isEqualTo(100);
    }
}
