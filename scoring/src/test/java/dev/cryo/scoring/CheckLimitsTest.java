package dev.cryo.scoring;

import dev.cryo.contracts.Check;
import dev.cryo.contracts.Severity;
import dev.cryo.contracts.event.Deduction;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.scoring.fixtures.ScanBuilder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.Optional;
import java.util.function.LongFunction;
import java.util.stream.Stream;

import static dev.cryo.scoring.fixtures.ScanBuilder.GIB;
import static dev.cryo.scoring.fixtures.ScanBuilder.NOW;
import static dev.cryo.scoring.fixtures.ScanBuilder.healthy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * Every check of SCORING.md just below, at and just above its warning and its critical limit,
 * with the default policy on a table small enough that {@code s = 1}. The limits are written here
 * as SCORING.md states them, not read from the code.
 */
class CheckLimitsTest {

    /** Limits are checked here, not what expiry can reach: every snapshot may go. */
    static final SnapshotExpiry EVERY_SNAPSHOT_EXPIRABLE = SnapshotExpiry.defaults(java.time.Duration.ZERO, 1);

    private static final long DAY = Duration.ofDays(1).getSeconds();

    static Stream<Arguments> limits() {
        return Stream.of(
                // small-files: share of 1,000 data files (≥ 8 small files), warning 20 %, critical 50 %
                sixCases(Check.SMALL_FILES, small -> healthy().dataFiles(1000).smallFiles(small), 200, 500, 1),
                // file-count: data files, warning 10,000·s, critical 50,000·s (s = 1 at 50 GiB)
                sixCases(Check.FILE_COUNT, files -> healthy().dataFiles(files), 10_000, 50_000, 1),
                // oversized-files: share of 1,000 data files, warning 20 %, critical 50 %
                sixCases(Check.OVERSIZED_FILES, oversized -> healthy().dataFiles(1000).oversizedFiles(oversized), 200, 500, 1),
                // delete-ratio: deleted rows per 1,000 data rows, warning 0.10, critical 0.25
                sixCases(Check.DELETE_RATIO, deleted -> healthy().records(1000).positionDeletes(1, deleted), 100, 250, 1),
                // equality-deletes: files, warning 10·s, critical 100·s
                sixCases(Check.EQUALITY_DELETES, files -> healthy().equalityDeletes(files, files), 10, 100, 1),
                // position-deletes: files, warning 100·s, critical 500·s
                sixCases(Check.POSITION_DELETES, files -> healthy().positionDeletes(files, files), 100, 500, 1),
                // snapshot-count: snapshots, warning 100·s, critical 500·s
                sixCases(Check.SNAPSHOT_COUNT, count -> healthy().snapshots((int) count, NOW.minus(Duration.ofDays(1))),
                        100, 500, 1),
                // snapshot-age: seconds since the oldest snapshot, warning 8 days, critical 30 days
                sixCases(Check.SNAPSHOT_AGE, seconds -> healthy().snapshots(20, NOW.minusSeconds(seconds)),
                        8 * DAY, 30 * DAY, 1),
                // manifest-count: manifests, warning 100·s, critical 500·s
                sixCases(Check.MANIFEST_COUNT, count -> healthy().manifests((int) count, null), 100, 500, 1),
                // manifest-clustering: span share in thousandths (16 manifests, 16 partitions), warning 50 %, critical 80 %
                sixCases(Check.MANIFEST_CLUSTERING, thousandths -> healthy().partitions(16).manifests(16, thousandths / 1000d),
                        500, 800, 1),
                // stale-statistics: rows changed per 1,000 rows, warning 0.20, critical 0.50
                sixCases(Check.STALE_STATISTICS, changed -> healthy().records(1000).rowsChangedSinceStatistics(changed),
                        200, 500, 1),
                // orphan-files on a 100 GiB table: the lesser of 10 % and 1 GiB warns, of 25 % and 10 GiB is critical
                sixCases(Check.ORPHAN_FILES, bytes -> healthy().dataBytes(100 * GIB).orphanBytes(bytes), GIB, 10 * GIB, 1),
                // orphan-files on a 1,000 MiB table: there the shares are the lesser limits (100 MiB and 250 MiB)
                sixCases(Check.ORPHAN_FILES, bytes -> healthy().dataBytes(1000 * ScanBuilder.MIB).orphanBytes(bytes),
                        100 * ScanBuilder.MIB, 250 * ScanBuilder.MIB, 1)
        ).flatMap(cases -> cases);
    }

    /**
     * partition-skew: max ÷ mean data files over 64 partitions. 63 partitions of 9 files and one of
     * 105 make a mean of 10.5 and a ratio of exactly 10; 63 of 1 and one of 225, exactly 50.
     */
    static Stream<Arguments> partitionSkew() {
        return Stream.of(
                arguments(skew(9, 104), null),
                arguments(skew(9, 105), Severity.WARNING),
                arguments(skew(9, 106), Severity.WARNING),
                arguments(skew(1, 224), Severity.WARNING),
                arguments(skew(1, 225), Severity.CRITICAL),
                arguments(skew(1, 226), Severity.CRITICAL));
    }

    @ParameterizedTest(name = "{0} measuring {1}: {2}")
    @MethodSource("limits")
    void aCheckCostsPointsFromItsLimitOn(Check check, long measured, Severity expected, TableScanned scan) {
        Optional<Deduction> deduction = deductionOf(check, scan, TablePolicy.defaults());

        assertThat(deduction.map(Deduction::severity)).isEqualTo(Optional.ofNullable(expected));
        deduction.ifPresent(found -> {
            assertThat(found.points()).isEqualTo(expected == Severity.CRITICAL ? 20 : 8);
            assertThat(found.fix()).isEqualTo(check.fixedBy());
            assertThat(found.explanation()).isNotBlank();
        });
    }

    @ParameterizedTest(name = "partition-skew {0}: {1}")
    @MethodSource("partitionSkew")
    void partitionSkewCostsPointsFromItsLimitOn(TableScanned scan, Severity expected) {
        Optional<Deduction> deduction = deductionOf(Check.PARTITION_SKEW, scan, TablePolicy.defaults());

        assertThat(deduction.map(Deduction::severity)).isEqualTo(Optional.ofNullable(expected));
    }

    /**
     * missing-statistics measures the size of a table without statistics: from 1 GiB a warning; it
     * has no critical limit by default, so the critical case sets one (100 GiB).
     */
    @ParameterizedTest(name = "missing-statistics on {0} bytes with critical {1}: {2}")
    @MethodSource("missingStatistics")
    void missingStatisticsWarnsFromItsSizeOn(long tableBytes, String critical, Severity expected) {
        PolicyBook book = critical == null ? PolicyBook.defaults()
                : PolicyBook.builder().global("missing-statistics", Setting.CRITICAL, critical, "critical").build();
        TableScanned scan = healthy().dataBytes(tableBytes).noStatistics().build();

        Grading grading = Scorer.grade(scan, book.effectiveFor(scan.table(), scan.properties()), EVERY_SNAPSHOT_EXPIRABLE, NOW);

        Optional<Deduction> deduction = grading.deductions().stream()
                .filter(found -> found.check() == Check.MISSING_STATISTICS).findFirst();
        assertThat(deduction.map(Deduction::severity)).isEqualTo(Optional.ofNullable(expected));
        if (expected == null) {
            assertThat(grading.notEvaluated()).anySatisfy(notEvaluated -> {
                assertThat(notEvaluated.check()).isEqualTo(Check.MISSING_STATISTICS);
                assertThat(notEvaluated.reason()).isEqualTo("the table holds 1024 MiB; statistics are expected from 1 GiB");
            });
        }
    }

    static Stream<Arguments> missingStatistics() {
        return Stream.of(
                arguments(GIB - 1, null, null),
                arguments(GIB, null, Severity.WARNING),
                arguments(GIB + 1, null, Severity.WARNING),
                arguments(100 * GIB - 1, "100GiB", Severity.WARNING),
                arguments(100 * GIB, "100GiB", Severity.CRITICAL),
                arguments(100 * GIB + 1, "100GiB", Severity.CRITICAL));
    }

    private static Stream<Arguments> sixCases(Check check, LongFunction<ScanBuilder> scan, long warning, long critical,
                                              long step) {
        return Stream.of(
                arguments(check, warning - step, null, scan.apply(warning - step).build()),
                arguments(check, warning, Severity.WARNING, scan.apply(warning).build()),
                arguments(check, warning + step, Severity.WARNING, scan.apply(warning + step).build()),
                arguments(check, critical - step, Severity.WARNING, scan.apply(critical - step).build()),
                arguments(check, critical, Severity.CRITICAL, scan.apply(critical).build()),
                arguments(check, critical + step, Severity.CRITICAL, scan.apply(critical + step).build()));
    }

    private static TableScanned skew(long filesPerPartition, long filesInLargest) {
        long[] files = new long[64];
        java.util.Arrays.fill(files, filesPerPartition);
        files[63] = filesInLargest;
        return healthy().dataFiles(63 * filesPerPartition + filesInLargest).partitionFiles(files).build();
    }

    static Optional<Deduction> deductionOf(Check check, TableScanned scan, TablePolicy policy) {
        return Scorer.grade(scan, policy, EVERY_SNAPSHOT_EXPIRABLE, NOW).deductions().stream()
                .filter(deduction -> deduction.check() == check)
                .findFirst();
    }
}
