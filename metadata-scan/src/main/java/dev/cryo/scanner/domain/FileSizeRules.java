package dev.cryo.scanner.domain;

import dev.cryo.contracts.event.FileSizeTerms;

import java.util.Map;

/**
 * The file-size terms of a table, from its properties: the target is Iceberg's
 * {@code write.target-file-size-bytes} (default 512 MiB); a file is small below 25 % of it and
 * oversized above twice it. A table can move either threshold with
 * {@code cryo.small-file-threshold-bytes} and {@code cryo.oversized-file-threshold-bytes}.
 */
public final class FileSizeRules {

    public static final String TARGET_FILE_SIZE = "write.target-file-size-bytes";
    public static final String SMALL_FILE_THRESHOLD = "cryo.small-file-threshold-bytes";
    public static final String OVERSIZED_FILE_THRESHOLD = "cryo.oversized-file-threshold-bytes";

    /** The terms for a table with these properties; a malformed number is an error naming the property. */
    public static FileSizeTerms termsOf(Map<String, String> tableProperties) {
        long target = positive(tableProperties, TARGET_FILE_SIZE, FileSizeTerms.ICEBERG_DEFAULT_TARGET_BYTES);
        FileSizeTerms defaults = FileSizeTerms.forTarget(target);
        long small = positive(tableProperties, SMALL_FILE_THRESHOLD, defaults.smallFileThresholdBytes());
        long oversized = positive(tableProperties, OVERSIZED_FILE_THRESHOLD, defaults.oversizedFileThresholdBytes());
        return new FileSizeTerms(target, small, oversized);
    }

    private static long positive(Map<String, String> properties, String key, long fallback) {
        String value = properties.get(key);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            long parsed = Long.parseLong(value.trim());
            if (parsed <= 0) {
                throw new NumberFormatException("not positive");
            }
            return parsed;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Cannot read table property " + key + ": '" + value
                    + "' is not a positive number of bytes; fix the property with ALTER TABLE ... SET TBLPROPERTIES", e);
        }
    }

    private FileSizeRules() {
    }
}
