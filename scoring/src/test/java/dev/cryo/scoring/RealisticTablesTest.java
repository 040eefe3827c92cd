package dev.cryo.scoring;

import dev.cryo.contracts.Check;
import dev.cryo.contracts.Grade;
import dev.cryo.contracts.Operation;
import dev.cryo.contracts.Severity;
import dev.cryo.contracts.event.Deduction;
import dev.cryo.contracts.event.TableScanned;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import static dev.cryo.contracts.Check.DELETE_RATIO;
import static dev.cryo.contracts.Check.EQUALITY_DELETES;
import static dev.cryo.contracts.Check.FILE_COUNT;
import static dev.cryo.contracts.Check.MANIFEST_COUNT;
import static dev.cryo.contracts.Check.MISSING_STATISTICS;
import static dev.cryo.contracts.Check.ORPHAN_FILES;
import static dev.cryo.contracts.Check.POSITION_DELETES;
import static dev.cryo.contracts.Check.SMALL_FILES;
import static dev.cryo.contracts.Check.SNAPSHOT_AGE;
import static dev.cryo.contracts.Check.SNAPSHOT_COUNT;
import static dev.cryo.contracts.Check.STALE_STATISTICS;
import static dev.cryo.contracts.Operation.COMPUTE_STATISTICS;
import static dev.cryo.contracts.Operation.CONVERT_DELETES;
import static dev.cryo.contracts.Operation.EXPIRE_SNAPSHOTS;
import static dev.cryo.contracts.Operation.OPTIMIZE;
import static dev.cryo.contracts.Operation.OPTIMIZE_MANIFESTS;
import static dev.cryo.contracts.Operation.REMOVE_ORPHAN_FILES;
import static dev.cryo.contracts.Operation.REWRITE_POSITION_DELETES;
import static dev.cryo.contracts.Severity.CRITICAL;
import static dev.cryo.contracts.Severity.WARNING;
import static dev.cryo.scoring.fixtures.ScanBuilder.GIB;
import static dev.cryo.scoring.fixtures.ScanBuilder.MIB;
import static dev.cryo.scoring.fixtures.ScanBuilder.NOW;
import static dev.cryo.scoring.fixtures.ScanBuilder.healthy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** Tables as they occur in a lakehouse, each with the grade an operator should see and the to-do list it implies. */
class RealisticTablesTest {

    record Finding(Check check, Severity severity) {
    }

    static Stream<Arguments> tables() {
        return Stream.of(
                arguments("healthy daily batch table",
                        // 120 GiB in 400 files over 30 days, 5 small files, compacted, expired, analyzed
                        healthy().dataBytes(120 * GIB).dataFiles(400).smallFiles(5).partitions(30).records(900_000_000)
                                .snapshots(25, NOW.minus(Duration.ofDays(3))).manifests(12, 0.05)
                                .rowsChangedSinceStatistics(30_000_000L).orphanBytes(200 * MIB).build(),
                        100, Grade.A, List.of(), List.of()),
                arguments("streaming table, one commit a minute",
                        // 20 GiB in 48,000 files, 46,000 of them small; 2,000 snapshots in two days; failed commits left 2 GiB.
                        // Every snapshot is younger than the 7-day retention: snapshot-count is held by it, not a
                        // deduction, and no expire_snapshots is asked for (it would remove none).
                        healthy().dataBytes(20 * GIB).dataFiles(48_000).smallFiles(46_000).partitions(48)
                                .records(400_000_000).snapshots(2_000, NOW.minus(Duration.ofDays(2)))
                                .manifests(900, 0.3).noStatistics().orphanBytes(2 * GIB).build(),
                        36, Grade.F,
                        List.of(new Finding(SMALL_FILES, CRITICAL), new Finding(MANIFEST_COUNT, CRITICAL),
                                new Finding(FILE_COUNT, WARNING), new Finding(MISSING_STATISTICS, WARNING),
                                new Finding(ORPHAN_FILES, WARNING)),
                        List.of(OPTIMIZE, COMPUTE_STATISTICS, OPTIMIZE_MANIFESTS, REMOVE_ORPHAN_FILES)),
                arguments("CDC table with MERGE INTO upserts",
                        // 300 GiB (s = 1.73): 250 equality delete files (limit 18), 400 position delete files
                        // (limit 174), 18 % of rows deleted, statistics 45 % behind
                        healthy().dataBytes(300 * GIB).dataFiles(2_400).smallFiles(100).partitions(64)
                                .records(2_000_000_000).equalityDeletes(250, 200_000_000).positionDeletes(400, 160_000_000)
                                .snapshots(150, NOW.minus(Duration.ofDays(5))).manifests(80, 0.2)
                                .rowsChangedSinceStatistics(900_000_000L).orphanBytes(0L).build(),
                        56, Grade.D,
                        List.of(new Finding(EQUALITY_DELETES, CRITICAL), new Finding(DELETE_RATIO, WARNING),
                                new Finding(POSITION_DELETES, WARNING), new Finding(STALE_STATISTICS, WARNING)),
                        List.of(CONVERT_DELETES, REWRITE_POSITION_DELETES, OPTIMIZE, COMPUTE_STATISTICS)),
                arguments("neglected table, snapshots never expired",
                        // 80 GiB appended daily for 400 days: 1,100 snapshots and manifests, 12 GiB of orphans, no statistics
                        healthy().dataBytes(80 * GIB).dataFiles(1_100).smallFiles(0).partitions(400).records(600_000_000)
                                .snapshots(1_100, NOW.minus(Duration.ofDays(400))).manifests(1_100, 0.01)
                                .noStatistics().orphanBytes(12 * GIB).build(),
                        12, Grade.F,
                        List.of(new Finding(SNAPSHOT_COUNT, CRITICAL), new Finding(SNAPSHOT_AGE, CRITICAL),
                                new Finding(MANIFEST_COUNT, CRITICAL), new Finding(ORPHAN_FILES, CRITICAL),
                                new Finding(MISSING_STATISTICS, WARNING)),
                        List.of(COMPUTE_STATISTICS, OPTIMIZE_MANIFESTS, EXPIRE_SNAPSHOTS, REMOVE_ORPHAN_FILES)));
    }

    @ParameterizedTest(name = "{0}: {2} points, grade {3}")
    @MethodSource("tables")
    void aRealisticTableGetsItsGradeAndToDoList(String description, TableScanned scan, int score, Grade grade,
                                                List<Finding> findings, List<Operation> fixes) {
        Grading grading = Scorer.grade(scan, TablePolicy.defaults(), Scorer.DEFAULT_EXPIRY, NOW);

        assertThat(grading.score()).isEqualTo(score);
        assertThat(grading.grade()).isEqualTo(grade);
        assertThat(grading.deductions()).extracting(deduction -> new Finding(deduction.check(), deduction.severity()))
                .containsExactlyElementsOf(findings);
        assertThat(grading.fixes()).containsExactlyElementsOf(fixes);
        assertThat(grading.deductions()).extracting(Deduction::explanation).doesNotContainNull();
    }
}
