package dev.cryo.contracts.event;

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

    /** Deleted rows (position plus equality delete records). */
    public long deleteRecords() {
        return positionDeleteRecords + equalityDeleteRecords;
    }
}
