package dev.cryo.contracts.event;

import java.util.List;
import java.util.function.ToLongFunction;

import static java.util.Objects.requireNonNull;

/**
 * Totals of the current snapshot (the sums of the partitions).
 *
 * @param partitions partitions with at least one live file
 */
public record TableTotals(
        long partitions,
        long dataFiles,
        long dataBytes,
        long records,
        long smallFiles,
        long smallFileBytes,
        long oversizedFiles,
        long positionDeleteFiles,
        long positionDeleteRecords,
        long equalityDeleteFiles,
        long equalityDeleteRecords) {

    public static final TableTotals EMPTY = new TableTotals(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    public TableTotals {
        Require.nonNegative(partitions, "partitions");
        Require.nonNegative(dataFiles, "dataFiles");
        Require.nonNegative(dataBytes, "dataBytes");
        Require.nonNegative(records, "records");
        Require.nonNegative(smallFiles, "smallFiles");
        Require.nonNegative(smallFileBytes, "smallFileBytes");
        Require.nonNegative(oversizedFiles, "oversizedFiles");
        Require.nonNegative(positionDeleteFiles, "positionDeleteFiles");
        Require.nonNegative(positionDeleteRecords, "positionDeleteRecords");
        Require.nonNegative(equalityDeleteFiles, "equalityDeleteFiles");
        Require.nonNegative(equalityDeleteRecords, "equalityDeleteRecords");
    }

    /** The sums of these partitions. */
    public static TableTotals of(List<PartitionStats> partitions) {
        TableTotals sums = new TableTotals(partitions.size(), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        for (PartitionStats partition : partitions) {
            sums = sums.moved(null, partition);
        }
        return sums;
    }

    /** Deleted rows (position plus equality delete records). */
    public long deleteRecords() {
        return positionDeleteRecords + equalityDeleteRecords;
    }

    /**
     * These totals with one partition's figures {@code before} replaced by {@code after}, as a rewrite of
     * that partition leaves them. A figure goes no lower than 0, should these totals not be the sums of
     * their partitions.
     */
    public TableTotals replacing(PartitionStats before, PartitionStats after) {
        return moved(requireNonNull(before, "before is null"), requireNonNull(after, "after is null"));
    }

    /** {@code before} (none when null) taken out of every figure, {@code after} put in. */
    private TableTotals moved(PartitionStats before, PartitionStats after) {
        return new TableTotals(partitions,
                move(dataFiles, before, after, PartitionStats::dataFiles),
                move(dataBytes, before, after, PartitionStats::dataBytes),
                move(records, before, after, PartitionStats::records),
                move(smallFiles, before, after, PartitionStats::smallFiles),
                move(smallFileBytes, before, after, PartitionStats::smallFileBytes),
                move(oversizedFiles, before, after, PartitionStats::oversizedFiles),
                move(positionDeleteFiles, before, after, PartitionStats::positionDeleteFiles),
                move(positionDeleteRecords, before, after, PartitionStats::positionDeleteRecords),
                move(equalityDeleteFiles, before, after, PartitionStats::equalityDeleteFiles),
                move(equalityDeleteRecords, before, after, PartitionStats::equalityDeleteRecords));
    }

    private static long move(long total, PartitionStats before, PartitionStats after, ToLongFunction<PartitionStats> figure) {
        return Math.max(0, total - (before == null ? 0 : figure.applyAsLong(before)) + figure.applyAsLong(after));
    }
}
