package dev.cryo.contracts.event;

/**
 * Files an operation touched, before or after it ran.
 *
 * @param dataFiles data files
 * @param dataBytes their bytes
 * @param deleteFiles delete files
 * @param records records in the data files
 */
public record FileCounts(long dataFiles, long dataBytes, long deleteFiles, long records) {
    public static final FileCounts ZERO = new FileCounts(0, 0, 0, 0);

    public FileCounts {
        Require.nonNegative(dataFiles, "dataFiles");
        Require.nonNegative(dataBytes, "dataBytes");
        Require.nonNegative(deleteFiles, "deleteFiles");
        Require.nonNegative(records, "records");
    }
}
