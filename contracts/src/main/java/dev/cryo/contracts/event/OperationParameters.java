package dev.cryo.contracts.event;

import java.time.Duration;

/**
 * Parameters an operation takes from the table's policy. Each is optional; absent means
 * the operation does not use it.
 *
 * @param targetFileSizeBytes output file size for rewrites
 * @param snapshotRetention snapshots older than this may expire
 * @param retainLast snapshots always kept, whatever their age
 * @param orphanAgeFloor files younger than this are never orphans
 */
public record OperationParameters(Long targetFileSizeBytes, Duration snapshotRetention, Integer retainLast,
                                  Duration orphanAgeFloor) {
    public static final OperationParameters NONE = new OperationParameters(null, null, null, null);

    public OperationParameters {
        if (targetFileSizeBytes != null && targetFileSizeBytes <= 0) {
            throw new IllegalArgumentException("targetFileSizeBytes must be positive: " + targetFileSizeBytes);
        }
        if (snapshotRetention != null && snapshotRetention.isNegative()) {
            throw new IllegalArgumentException("snapshotRetention is negative: " + snapshotRetention);
        }
        if (retainLast != null && retainLast < 1) {
            throw new IllegalArgumentException("retainLast must be at least 1: " + retainLast);
        }
        if (orphanAgeFloor != null && orphanAgeFloor.isNegative()) {
            throw new IllegalArgumentException("orphanAgeFloor is negative: " + orphanAgeFloor);
        }
    }
}
