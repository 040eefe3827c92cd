package dev.cryo.scoring;

import dev.cryo.contracts.Check;
import dev.cryo.contracts.Severity;
import dev.cryo.contracts.event.TableScanned;

import java.util.Locale;

/** The one line a deduction explains itself with, e.g. "62.3 % of data files are under 128 MiB (limit 50 %)". */
final class Explanations {

    static String explain(Check check, Severity severity, double measured, double limit, TableScanned scan) {
        return switch (check) {
            case SMALL_FILES -> Formats.measuredPercent(measured) + " of data files are under "
                    + Formats.bytes(scan.fileSizes().smallFileThresholdBytes()) + " and could be merged in their partition"
                    + " (limit " + Formats.percent(limit) + ")";
            case FILE_COUNT -> Formats.count(measured) + " data files in the current snapshot (limit "
                    + Formats.count(limit) + ")";
            case OVERSIZED_FILES -> Formats.measuredPercent(measured) + " of data files are over "
                    + Formats.bytes(scan.fileSizes().oversizedFileThresholdBytes()) + " (limit " + Formats.percent(limit) + ")";
            case PARTITION_SKEW -> String.format(Locale.ROOT,
                    "the partition with the most data files holds %.1f× the mean per partition (limit %s×)",
                    measured, Formats.plain(limit));
            case DELETE_RATIO -> "deleted rows are " + Formats.ratio(measured) + " of data rows ("
                    + Formats.count(scan.totals().deleteRecords()) + " of " + Formats.count(scan.totals().records())
                    + ", limit " + Formats.ratio(limit) + ")";
            case EQUALITY_DELETES -> Formats.count(measured) + " equality delete files (limit " + Formats.count(limit) + ")";
            case POSITION_DELETES -> Formats.count(measured) + " position delete files (limit " + Formats.count(limit) + ")";
            case SNAPSHOT_COUNT -> Formats.count(measured) + " snapshots in table metadata (limit " + Formats.count(limit) + ")";
            case SNAPSHOT_AGE -> "the oldest snapshot is " + Formats.age(measured) + " old (limit " + Formats.age(limit) + ")";
            case MANIFEST_COUNT -> Formats.count(measured) + " manifests in the current snapshot (limit "
                    + Formats.count(limit) + ")";
            case MANIFEST_CLUSTERING -> "a manifest's partition bounds span " + Formats.measuredPercent(measured)
                    + " of the partitions on average (limit " + Formats.percent(limit) + ")";
            case MISSING_STATISTICS -> "no column statistics for any snapshot of this " + Formats.bytes(measured)
                    + " table (" + severity.id() + " from " + Formats.bytes(limit) + ")";
            case STALE_STATISTICS -> "rows changed since the newest statistics are " + Formats.ratio(measured)
                    + " of the rows now (limit " + Formats.ratio(limit) + ")";
            case ORPHAN_FILES -> orphans(measured, limit, scan);
        };
    }

    private static String orphans(double measured, double limit, TableScanned scan) {
        long tableBytes = scan.totals().dataBytes();
        String share = tableBytes == 0 ? "" : ", " + Formats.measuredPercent(measured / tableBytes) + " of table bytes";
        return Formats.bytes(measured) + " of orphan files under the table location" + share + " (limit "
                + Formats.bytes(limit) + ")";
    }

    private Explanations() {
    }
}
