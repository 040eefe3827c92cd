package dev.cryo.contracts.event;

/**
 * What a chunk or a plan is expected to read and write.
 *
 * @param inputFiles data files to rewrite
 * @param inputBytes their bytes
 * @param deleteFiles delete files applied or removed
 * @param expectedOutputFiles data files expected afterwards
 */
public record Estimate(long inputFiles, long inputBytes, long deleteFiles, long expectedOutputFiles) {
    public static final Estimate ZERO = new Estimate(0, 0, 0, 0);

    public Estimate {
        Require.nonNegative(inputFiles, "inputFiles");
        Require.nonNegative(inputBytes, "inputBytes");
        Require.nonNegative(deleteFiles, "deleteFiles");
        Require.nonNegative(expectedOutputFiles, "expectedOutputFiles");
    }

    public Estimate plus(Estimate other) {
        return new Estimate(inputFiles + other.inputFiles, inputBytes + other.inputBytes,
                deleteFiles + other.deleteFiles, expectedOutputFiles + other.expectedOutputFiles);
    }
}
