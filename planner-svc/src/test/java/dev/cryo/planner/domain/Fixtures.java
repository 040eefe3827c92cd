package dev.cryo.planner.domain;

import dev.cryo.contracts.Check;
import dev.cryo.contracts.Grade;
import dev.cryo.contracts.Severity;
import dev.cryo.contracts.TableId;
import dev.cryo.contracts.event.Deduction;
import dev.cryo.contracts.event.FileSizeTerms;
import dev.cryo.contracts.event.PartitionFieldInfo;
import dev.cryo.contracts.event.PartitionSpecInfo;
import dev.cryo.contracts.event.PartitionStats;
import dev.cryo.contracts.event.TableGraded;
import dev.cryo.contracts.event.TableScanned;
import dev.cryo.contracts.event.TableTotals;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Scans, grades and partitions for planner tests, with only the numbers a test cares about. */
final class Fixtures {

    static final TableId TABLE = TableId.parse("lake.sales.orders");
    static final String SCAN_ID = "scan-1";
    static final long MIB = 1024L * 1024;
    static final long GIB = 1024 * MIB;
    static final long TARGET = 512 * MIB;
    static final Instant AT = Instant.parse("2026-11-29T10:00:00Z");

    /** Spec 0: identity on a string column {@code region}. */
    static final PartitionSpecInfo BY_REGION = new PartitionSpecInfo(0,
            List.of(new PartitionFieldInfo("region", "region", 3, "string", "identity")));

    static PartitionStats partition(String value, long smallFiles, long smallFileBytes) {
        return partition(0, List.of(value), smallFiles, smallFileBytes, 0, 0);
    }

    static PartitionStats partition(int specId, List<String> values, long smallFiles, long smallFileBytes,
                                    long positionDeleteFiles, long equalityDeleteFiles) {
        long dataFiles = smallFiles + 2;
        long dataBytes = smallFileBytes + 2 * TARGET;
        return new PartitionStats(specId, values, dataFiles, dataBytes, dataFiles * 1000, smallFiles, smallFileBytes,
                0, List.of(), positionDeleteFiles, positionDeleteFiles * 10, equalityDeleteFiles, equalityDeleteFiles * 10);
    }

    static TableScanned scan(List<PartitionSpecInfo> specs, List<PartitionStats> partitions) {
        return scan(specs, partitions, Map.of());
    }

    static TableScanned scan(List<PartitionSpecInfo> specs, List<PartitionStats> partitions, Map<String, String> properties) {
        return new TableScanned(TABLE, SCAN_ID, AT, Duration.ofMillis(50), 2, 42L, 7L, AT, "s3://lake/sales/orders",
                FileSizeTerms.forTarget(TARGET), TableTotals.EMPTY, specs, partitions, null, null, null, null,
                properties, null);
    }

    static TableGraded graded(Deduction... deductions) {
        int points = Arrays.stream(deductions).mapToInt(Deduction::points).sum();
        int score = Math.max(0, 100 - points);
        return new TableGraded(TABLE, SCAN_ID, 42L, AT, score, Grade.of(score), 1.0, List.of(deductions), List.of());
    }

    static Deduction deduction(Check check, Severity severity) {
        return new Deduction(check, severity, severity.points(), 1, 1, "count", check.fixedBy(), check + " crossed");
    }

    static Deduction warning(Check check) {
        return deduction(check, Severity.WARNING);
    }

    private Fixtures() {
    }
}
