package dev.cryo.scoring;

import dev.cryo.contracts.Check;
import dev.cryo.contracts.Grade;
import dev.cryo.contracts.Severity;
import dev.cryo.contracts.event.Deduction;
import dev.cryo.contracts.event.HeldFinding;
import dev.cryo.contracts.event.NotEvaluated;
import dev.cryo.contracts.event.PartitionStats;
import dev.cryo.contracts.event.SnapshotStats;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.contracts.event.TableTotals;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The 14 checks of SCORING.md: a scan and a table's effective policy in, score, grade, deductions
 * and not-evaluated checks out. Pure: no clock of its own, no I/O.
 *
 * <p>A limit is crossed when the measured value reaches it ({@code measured >= limit}); a measured
 * value of zero never costs points. Count limits ({@code ·s}) are multiplied by the size scale and
 * rounded up to whole counts. orphan-files is crossed at its share of table bytes or at its absolute
 * size, whichever is less: the reading an operator expects from "10 % of table bytes or 1 GiB" is
 * that either one is reason enough to clean up.
 */
public final class Scorer {

    /** Size at which the scale factor {@code s} starts to grow above 1. */
    public static final long SCALE_REFERENCE_BYTES = 100L * 1024 * 1024 * 1024;
    /** small-files judges only tables with at least this many small files that compaction can merge. */
    public static final int MINIMUM_SMALL_FILES = 8;
    /** The planner's defaults of snapshot expiry: 7 days, keep the last 10 (PlanningPolicy.DEFAULTS). */
    public static final SnapshotExpiry DEFAULT_EXPIRY = SnapshotExpiry.defaults(Duration.ofDays(7), 10);
    /** A partition's small files can be merged when it holds at least this many. */
    public static final int MINIMUM_MERGEABLE_SMALL_FILES = 2;
    /** partition-skew judges only tables with at least this many partitions holding data files. */
    public static final int MINIMUM_PARTITIONS_FOR_SKEW = 4;
    /** manifest-clustering judges only tables with at least this many manifests and partitions. */
    public static final int MINIMUM_FOR_CLUSTERING = 16;

    private static final Comparator<Deduction> WORST_FIRST = Comparator
            .comparingInt(Deduction::points).reversed()
            .thenComparing(deduction -> deduction.check().ordinal());

    /** {@code s = max(1, sqrt(D / 100 GiB))}. */
    public static double sizeScale(long dataBytes) {
        return Math.max(1, Math.sqrt((double) dataBytes / SCALE_REFERENCE_BYTES));
    }

    /**
     * Grades a scan; a snapshot finding that no expiry can win back under the table's retention is
     * held, not deducted (SCORING.md, "Only what the operation can win back").
     *
     * @param expiry the retention and retain-last the planner uses when the table sets neither
     * @param now the time that snapshot ages are measured at
     */
    public static Grading grade(TableScanned scan, TablePolicy policy, SnapshotExpiry expiry, Instant now) {
        requireNonNull(scan, "scan is null");
        requireNonNull(policy, "policy is null");
        requireNonNull(expiry, "expiry is null");
        requireNonNull(now, "now is null");
        double scale = sizeScale(scan.totals().dataBytes());
        SnapshotExpiry tableExpiry = expiry.forTable(scan.properties());
        SnapshotStats afterExpiry = tableExpiry.after(scan.snapshots(), now, 0);
        List<Deduction> deductions = new ArrayList<>();
        List<HeldFinding> held = new ArrayList<>();
        List<NotEvaluated> notEvaluated = new ArrayList<>();
        for (CheckPolicy checkPolicy : policy.inOrder()) {
            Check check = checkPolicy.check();
            if (!checkPolicy.isEnabled()) {
                notEvaluated.add(new NotEvaluated(check, "disabled by " + checkPolicy.enabled().origin()));
                continue;
            }
            Measurement measurement = measure(checkPolicy, scan, now);
            if (measurement instanceof Measurement.NoData noData) {
                notEvaluated.add(new NotEvaluated(check, noData.reason()));
            } else if (measurement instanceof Measurement.Value value) {
                Optional<Deduction> deduction = judge(checkPolicy, value.measured(), scan);
                Optional<SnapshotExpiry.Held> holder = deduction.isPresent() && isSnapshotCheck(check)
                        ? heldBy(tableExpiry, checkPolicy, deduction.get(), scan, afterExpiry, now) : Optional.empty();
                if (holder.isPresent()) {
                    Deduction finding = deduction.get();
                    held.add(new HeldFinding(check, finding.severity(), finding.measured(), finding.limit(), finding.unit(),
                            finding.fix(), holder.get().heldBy(), finding.explanation() + "; " + holder.get().explanation()));
                } else {
                    deduction.ifPresent(deductions::add);
                }
            }
        }
        deductions.sort(WORST_FIRST);
        int lost = deductions.stream().mapToInt(Deduction::points).sum();
        int score = Math.max(0, Grade.MAX_SCORE - lost);
        return new Grading(score, Grade.of(score), scale, deductions, notEvaluated, held);
    }

    private static boolean isSnapshotCheck(Check check) {
        return check == Check.SNAPSHOT_COUNT || check == Check.SNAPSHOT_AGE;
    }

    /**
     * The setting that holds a snapshot finding: what expire_snapshots would leave still crosses the
     * same limit (SCORING.md, "Only what the operation can win back").
     */
    private static Optional<SnapshotExpiry.Held> heldBy(SnapshotExpiry expiry, CheckPolicy policy, Deduction deduction,
                                                         TableScanned scan, SnapshotStats afterExpiry, Instant now) {
        TableScanned expired = scan.withSnapshots(afterExpiry);
        if (!(measure(policy, expired, now) instanceof Measurement.Value value)) {
            return Optional.empty();
        }
        Optional<Deduction> remaining = judge(policy, value.measured(), expired);
        if (remaining.isEmpty() || remaining.get().severity() != deduction.severity()) {
            return Optional.empty();
        }
        return expiry.holds(policy.check(), scan.snapshots(), afterExpiry);
    }

    private static Measurement measure(CheckPolicy policy, TableScanned scan, Instant now) {
        TableTotals totals = scan.totals();
        return switch (policy.check()) {
            case SMALL_FILES -> {
                if (totals.dataFiles() == 0) {
                    yield Measurement.noData("the current snapshot has no data files");
                }
                long mergeable = mergeableSmallFiles(scan);
                if (mergeable < MINIMUM_SMALL_FILES) {
                    yield Measurement.noData("only " + mergeable + " small files that compaction can merge"
                            + (mergeable < totals.smallFiles() ? " (" + totals.smallFiles() + " in all; a partition's lone"
                            + " small file is as compact as it gets)" : "") + "; the check starts at " + MINIMUM_SMALL_FILES);
                }
                yield Measurement.value((double) mergeable / totals.dataFiles());
            }
            case FILE_COUNT -> Measurement.value(totals.dataFiles());
            case OVERSIZED_FILES -> totals.dataFiles() == 0
                    ? Measurement.noData("the current snapshot has no data files")
                    : Measurement.value((double) totals.oversizedFiles() / totals.dataFiles());
            case PARTITION_SKEW -> partitionSkew(scan.partitions());
            case DELETE_RATIO -> totals.records() == 0
                    ? Measurement.noData("the table has no data rows")
                    : Measurement.value((double) totals.deleteRecords() / totals.records());
            case EQUALITY_DELETES -> Measurement.value(totals.equalityDeleteFiles());
            case POSITION_DELETES -> Measurement.value(totals.positionDeleteFiles());
            case SNAPSHOT_COUNT -> Measurement.value(scan.snapshots().count());
            case SNAPSHOT_AGE -> scan.snapshots().oldestAt() == null
                    ? Measurement.noData("the table has no snapshot")
                    : Measurement.value(Math.max(0, Duration.between(scan.snapshots().oldestAt(), now).getSeconds()));
            case MANIFEST_COUNT -> Measurement.value(scan.manifests().count());
            case MANIFEST_CLUSTERING -> manifestClustering(scan);
            case MISSING_STATISTICS -> missingStatistics(policy, scan);
            case STALE_STATISTICS -> staleStatistics(scan);
            case ORPHAN_FILES -> scan.orphans() == null
                    ? Measurement.noData("no storage listing of the table location yet")
                    : Measurement.value(scan.orphans().orphanBytes());
        };
    }

    /**
     * Small files that compaction can combine: those of partitions holding at least
     * {@link #MINIMUM_MERGEABLE_SMALL_FILES}. A partition whose whole data is one small file is as
     * compact as it can be, and optimize cannot win those points back. Without per-partition
     * statistics every small file counts.
     */
    public static long mergeableSmallFiles(TableScanned scan) {
        if (scan.partitions().isEmpty()) {
            return scan.totals().smallFiles();
        }
        return scan.partitions().stream().mapToLong(PartitionStats::smallFiles)
                .filter(small -> small >= MINIMUM_MERGEABLE_SMALL_FILES).sum();
    }

    private static Measurement partitionSkew(List<PartitionStats> partitions) {
        List<PartitionStats> withData = partitions.stream().filter(partition -> partition.dataFiles() > 0).toList();
        if (withData.size() < MINIMUM_PARTITIONS_FOR_SKEW) {
            return Measurement.noData("fewer than " + MINIMUM_PARTITIONS_FOR_SKEW + " partitions");
        }
        long max = withData.stream().mapToLong(PartitionStats::dataFiles).max().orElseThrow();
        double mean = withData.stream().mapToLong(PartitionStats::dataFiles).average().orElseThrow();
        return Measurement.value(max / mean);
    }

    private static Measurement manifestClustering(TableScanned scan) {
        if (scan.manifests().partitionSpanShare() == null) {
            return Measurement.noData("the scan did not measure manifest partition bounds (unpartitioned table?)");
        }
        if (scan.manifests().count() < MINIMUM_FOR_CLUSTERING) {
            return Measurement.noData("only " + scan.manifests().count() + " manifests; the check starts at "
                    + MINIMUM_FOR_CLUSTERING);
        }
        if (scan.totals().partitions() < MINIMUM_FOR_CLUSTERING) {
            return Measurement.noData("only " + scan.totals().partitions() + " partitions; the check starts at "
                    + MINIMUM_FOR_CLUSTERING);
        }
        return Measurement.value(scan.manifests().partitionSpanShare());
    }

    /** SCORING.md expects statistics from a table size on (the warning limit): below it the check does not apply. */
    private static Measurement missingStatistics(CheckPolicy policy, TableScanned scan) {
        if (!scan.statistics().files().isEmpty()) {
            return new Measurement.Healthy();
        }
        long tableBytes = scan.totals().dataBytes();
        Optional<Double> expectedFrom = policy.limit(Setting.WARNING).map(Sourced::value);
        if (expectedFrom.isPresent() && tableBytes < expectedFrom.get()) {
            return Measurement.noData("the table holds " + Formats.bytes(tableBytes) + "; statistics are expected from "
                    + Formats.bytes(expectedFrom.get()));
        }
        return Measurement.value(tableBytes);
    }

    private static Measurement staleStatistics(TableScanned scan) {
        if (scan.statistics().files().isEmpty()) {
            // Not a second finding for the same symptom: missing-statistics judges a table without statistics.
            return Measurement.noData("no statistics file yet (see missing-statistics)");
        }
        if (scan.statistics().rowsChangedSinceNewest() == null) {
            return Measurement.noData("snapshot summaries do not say how many rows changed since the newest statistics");
        }
        if (scan.totals().records() == 0) {
            return Measurement.noData("the table has no data rows");
        }
        return Measurement.value((double) scan.statistics().rowsChangedSinceNewest() / scan.totals().records());
    }

    private static Optional<Deduction> judge(CheckPolicy policy, double measured, TableScanned scan) {
        Check check = policy.check();
        Optional<Double> warning = effectiveLimit(policy, Severity.WARNING, scan.totals().dataBytes());
        Optional<Double> critical = effectiveLimit(policy, Severity.CRITICAL, scan.totals().dataBytes());
        if (measured <= 0) {
            return Optional.empty();
        }
        Severity severity;
        double crossed;
        if (critical.isPresent() && measured >= critical.get()) {
            severity = Severity.CRITICAL;
            crossed = critical.get();
        } else if (warning.isPresent() && measured >= warning.get()) {
            severity = Severity.WARNING;
            crossed = warning.get();
        } else {
            return Optional.empty();
        }
        return Optional.of(new Deduction(check, severity, severity.points(), measured, crossed,
                measuredUnit(check).id(), check.fixedBy(),
                Explanations.explain(check, severity, measured, crossed, scan)));
    }

    /**
     * The limit a measured value is compared with for a table of {@code dataBytes}, in the measured
     * unit: count limits multiplied by the size scale and rounded up, orphan-files the lesser of its
     * share of table bytes and its absolute size.
     */
    public static Optional<Double> effectiveLimit(CheckPolicy policy, Severity severity, long dataBytes) {
        Setting setting = severity == Severity.CRITICAL ? Setting.CRITICAL : Setting.WARNING;
        Optional<Double> base = policy.limit(setting).map(Sourced::value);
        if (policy.spec().hasByteLimits()) {
            Setting bytesSetting = severity == Severity.CRITICAL ? Setting.CRITICAL_BYTES : Setting.WARNING_BYTES;
            Optional<Double> share = base.map(value -> value * dataBytes);
            Optional<Double> bytes = policy.limit(bytesSetting).map(Sourced::value);
            if (share.isPresent() && bytes.isPresent()) {
                return Optional.of(Math.min(share.get(), bytes.get()));
            }
            return share.isPresent() ? share : bytes;
        }
        if (policy.spec().scaling() == CheckSpec.Scaling.BY_TABLE_SIZE) {
            double scale = sizeScale(dataBytes);
            return base.map(value -> Math.ceil(value * scale));
        }
        return base;
    }

    /** The unit of a check's measured value and effective limits: orphan-files is limited by a share but measured in bytes. */
    public static LimitUnit measuredUnit(Check check) {
        CheckSpec spec = CheckSpec.of(check);
        return spec.hasByteLimits() ? LimitUnit.BYTES : spec.unit();
    }

    private Scorer() {
    }
}
