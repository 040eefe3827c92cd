package dev.cryo.contracts.event;

/**
 * The file-size terms the scan used: a small file is below {@code smallFileThresholdBytes},
 * an oversized file above {@code oversizedFileThresholdBytes}.
 *
 * @param targetFileSizeBytes the table's {@code write.target-file-size-bytes} (Iceberg default 512 MiB)
 * @param smallFileThresholdBytes files below this are small (default 25 % of the target)
 * @param oversizedFileThresholdBytes files above this are oversized (default 2 × target)
 */
public record FileSizeTerms(long targetFileSizeBytes, long smallFileThresholdBytes, long oversizedFileThresholdBytes) {

    /** Iceberg's default {@code write.target-file-size-bytes}. */
    public static final long ICEBERG_DEFAULT_TARGET_BYTES = 512L * 1024 * 1024;

    public FileSizeTerms {
        if (targetFileSizeBytes <= 0) {
            throw new IllegalArgumentException("targetFileSizeBytes must be positive: " + targetFileSizeBytes);
        }
        Require.nonNegative(smallFileThresholdBytes, "smallFileThresholdBytes");
        Require.nonNegative(oversizedFileThresholdBytes, "oversizedFileThresholdBytes");
    }

    /** The default terms for a target: small below 25 %, oversized above 200 %. */
    public static FileSizeTerms forTarget(long targetFileSizeBytes) {
        return new FileSizeTerms(targetFileSizeBytes, targetFileSizeBytes / 4, targetFileSizeBytes * 2);
    }
}
